package dev.bobbin.config.security;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.bobbin.config.SettingsException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code bobbin.security} section, read by RM members and NodeManagers alike: how HTTP callers
 * are authenticated, whether ACLs are checked, who the administrators are, and where users' groups
 * come from.
 *
 * @param aclEnabled {@code yarn.acl.enable}: on by default unless {@code auth} is simple
 * @param adminAcl {@code yarn.admin.acl}, before the daemon's own user is added
 */
public record SecuritySettings(
    AuthMethod auth,
    SimpleAuthSettings simple,
    TokenSettings token,
    boolean aclEnabled,
    AccessControlList adminAcl,
    GroupsSettings groups) {
  private static final String SECTION = "bobbin.security";

  public static SecuritySettings from(Config root) {
    Config c = root.getConfig(SECTION);
    AuthMethod auth = AuthMethod.parse(key("auth"), c.getString("auth"));
    SimpleAuthSettings simple = new SimpleAuthSettings(
        c.getBoolean("simple.anonymous-allowed"),
        nonBlank(c, "simple.anonymous-user"),
        positive(c, "simple.cookie-validity"),
        path(c, "simple.cookie-secret-file"));
    TokenSettings token = new TokenSettings(
        path(c, "token.jwks-file"),
        url(c, "token.jwks-url"),
        path(c, "token.hmac-key-file"),
        nonBlank(c, "token.issuer"),
        nonBlank(c, "token.audience"),
        nonBlank(c, "token.user-claim"),
        nonBlank(c, "token.groups-claim"),
        notNegative(c, "token.clock-skew"));
    if (auth == AuthMethod.TOKEN && !token.hasKeys()) {
      throw new SettingsException(key("token"),
          "token authentication needs a key to verify tokens with: jwks-file, jwks-url or hmac-key-file");
    }
    GroupsSource source = GroupsSource.parse(key("groups.source"), c.getString("groups.source"));
    if (source == GroupsSource.TOKEN && auth != AuthMethod.TOKEN) {
      throw new SettingsException(key("groups.source"), "token needs auth = token; with " + auth.lowerName()
          + " authentication requests carry no groups");
    }
    GroupsSettings groups = new GroupsSettings(source, positive(c, "groups.cache-ttl"),
        positive(c, "groups.negative-cache-ttl"), staticMapping(c));
    boolean aclEnabled = c.hasPath("acl-enable") ? bool(c, "acl-enable") : auth != AuthMethod.SIMPLE;
    return new SecuritySettings(auth, simple, token, aclEnabled, AccessControlList.parse(c.getString("admin-acl")),
        groups);
  }

  private static String key(String path) {
    return SECTION + "." + path;
  }

  private static boolean bool(Config c, String path) {
    try {
      return c.getBoolean(path);
    } catch (ConfigException e) {
      throw new SettingsException(key(path), "must be true or false");
    }
  }

  private static String nonBlank(Config c, String path) {
    String v = c.getString(path);
    if (v.isBlank()) throw new SettingsException(key(path), "must not be empty");
    return v.trim();
  }

  private static Path path(Config c, String path) {
    String v = c.getString(path);
    return v.isBlank() ? null : Path.of(v.trim());
  }

  private static URI url(Config c, String path) {
    String v = c.getString(path).trim();
    if (v.isEmpty()) return null;
    try {
      URI u = new URI(v);
      if (u.getHost() == null || !("https".equals(u.getScheme()) || "http".equals(u.getScheme()))) {
        throw new SettingsException(key(path), "'" + v + "' is not an http(s) URL");
      }
      return u;
    } catch (URISyntaxException e) {
      throw new SettingsException(key(path), "'" + v + "' is not a URL: " + e.getMessage());
    }
  }

  private static Duration positive(Config c, String path) {
    Duration d = duration(c, path);
    if (d.isZero() || d.isNegative()) throw new SettingsException(key(path), "must be positive, was " + d);
    return d;
  }

  private static Duration notNegative(Config c, String path) {
    Duration d = duration(c, path);
    if (d.isNegative()) throw new SettingsException(key(path), "must not be negative, was " + d);
    return d;
  }

  private static Duration duration(Config c, String path) {
    try {
      return c.getDuration(path);
    } catch (ConfigException e) {
      throw new SettingsException(key(path), "must be a duration such as 30s");
    }
  }

  /**
   * A HOCON object of user to group list ({@code alice = [eng, ops]}), or Hadoop's string form
   * ({@code "dr.who=;alice=eng,ops"}).
   */
  private static Map<String, List<String>> staticMapping(Config c) {
    String path = "groups.static-mapping";
    ConfigValue v = c.getValue(path);
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (v.valueType() == ConfigValueType.STRING) {
      for (String entry : ((String) v.unwrapped()).split(";")) {
        if (entry.isBlank()) continue;
        int eq = entry.indexOf('=');
        if (eq <= 0) throw new SettingsException(key(path), "'" + entry + "' is not user=group,group");
        out.put(entry.substring(0, eq).trim(), commaList(entry.substring(eq + 1)));
      }
      return out;
    }
    if (v.valueType() != ConfigValueType.OBJECT) {
      throw new SettingsException(key(path), "must be an object of user = [groups], or user=group,group;...");
    }
    for (Map.Entry<String, ConfigValue> e : ((ConfigObject) v).entrySet()) {
      ConfigValue groups = e.getValue();
      List<String> list = new ArrayList<>();
      if (groups.valueType() == ConfigValueType.LIST) {
        for (Object g : (List<?>) groups.unwrapped()) list.add(String.valueOf(g).trim());
      } else if (groups.valueType() == ConfigValueType.STRING) {
        list.addAll(commaList((String) groups.unwrapped()));
      } else {
        throw new SettingsException(key(path + "." + e.getKey()), "must be a list of groups");
      }
      out.put(e.getKey(), List.copyOf(list));
    }
    return out;
  }

  private static List<String> commaList(String s) {
    return Arrays.stream(s.split(",")).map(String::trim).filter(g -> !g.isEmpty()).toList();
  }
}
