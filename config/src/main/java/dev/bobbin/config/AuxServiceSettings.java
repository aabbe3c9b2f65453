package dev.bobbin.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The auxiliary services a NodeManager runs: {@code bobbin.nm.aux-services} names them (YARN's
 * {@code yarn.nodemanager.aux-services}), and {@code bobbin.nm.aux-service.<name>} holds each one's
 * settings, its implementing class in {@code class} (YARN's {@code
 * yarn.nodemanager.aux-services.<name>.class}); HOCON cannot hold a list and an object under one
 * key, hence the singular. A name is what YARN allows (letters, digits and {@code _}, not starting
 * with a digit), at most once; every listed service has a class, and every configured one is listed.
 */
public record AuxServiceSettings(List<Service> services) {
  public static final String LIST_KEY = "bobbin.nm.aux-services";
  public static final String SERVICE_KEY = "bobbin.nm.aux-service";
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  public static final AuxServiceSettings NONE = new AuxServiceSettings(List.of());

  /**
   * @param className the service's implementation
   * @param config the service's own block, {@code bobbin.nm.aux-service.<name>}, {@code class} included
   */
  public record Service(String name, String className, Config config) {
    /** The key of this service's class. */
    public String classKey() {
      return SERVICE_KEY + "." + name + ".class";
    }
  }

  public AuxServiceSettings {
    services = List.copyOf(services);
  }

  public static AuxServiceSettings from(Config root) {
    List<String> names;
    try {
      names = root.hasPath(LIST_KEY) ? root.getStringList(LIST_KEY) : List.of();
    } catch (ConfigException.WrongType e) {
      throw new SettingsException(LIST_KEY, "must be a list of service names, as [\"files\"]");
    }
    Config blocks = serviceBlocks(root);
    Set<String> seen = new HashSet<>();
    List<Service> services = new ArrayList<>();
    for (String name : names) {
      if (!NAME.matcher(name).matches()) {
        throw new SettingsException(LIST_KEY, "'" + name + "' is not a service name: letters, digits and _ only, "
            + "not starting with a digit");
      }
      if (!seen.add(name)) throw new SettingsException(LIST_KEY, "names '" + name + "' twice");
      services.add(service(blocks, name));
    }
    for (String configured : blocks.root().keySet()) {
      if (!seen.contains(configured)) {
        throw new SettingsException(SERVICE_KEY + "." + configured,
            "configures a service that " + LIST_KEY + " does not list");
      }
    }
    return new AuxServiceSettings(services);
  }

  private static Config serviceBlocks(Config root) {
    if (!root.hasPath(SERVICE_KEY)) return ConfigFactory.empty();
    try {
      return root.getConfig(SERVICE_KEY);
    } catch (ConfigException.WrongType e) {
      throw new SettingsException(SERVICE_KEY, "must be an object with one block per service");
    }
  }

  private static Service service(Config blocks, String name) {
    String key = SERVICE_KEY + "." + name;
    if (!blocks.root().containsKey(name) || blocks.root().get(name).valueType() != ConfigValueType.OBJECT) {
      throw new SettingsException(key + ".class", "missing: the service '" + name + "' that " + LIST_KEY
          + " lists needs the class that implements it");
    }
    Config block = blocks.getConfig("\"" + name + "\"");
    if (!block.hasPath("class") || block.getValue("class").valueType() != ConfigValueType.STRING
        || block.getString("class").isBlank()) {
      throw new SettingsException(key + ".class", "missing: the service '" + name + "' that " + LIST_KEY
          + " lists needs the class that implements it");
    }
    return new Service(name, block.getString("class").strip(), block);
  }
}
