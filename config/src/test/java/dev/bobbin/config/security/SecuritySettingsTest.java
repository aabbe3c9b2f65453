package dev.bobbin.config.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecuritySettingsTest {
  private static SecuritySettings with(String hocon) {
    Config c = ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve();
    return SecuritySettings.from(c);
  }

  @Test
  void defaultsAreSimpleWithoutAnonymousCallersAndWithoutAcls() {
    SecuritySettings s = with("");
    assertThat(s.auth()).isEqualTo(AuthMethod.SIMPLE);
    assertThat(s.simple().anonymousAllowed()).isFalse();
    assertThat(s.simple().anonymousUser()).isEqualTo("dr.who");
    assertThat(s.aclEnabled()).isFalse();
    assertThat(s.adminAcl()).isEqualTo(AccessControlList.NO_ONE);
    assertThat(s.groups().source()).isEqualTo(GroupsSource.SHELL);
    assertThat(s.groups().staticMapping()).containsEntry("dr.who", List.of());
    assertThat(s.token().userClaim()).isEqualTo("sub");
  }

  @Test
  void tokenAuthenticationTurnsAclsOnUnlessToldOtherwise() {
    SecuritySettings s = with("bobbin.security { auth = token, token.hmac-key-file = /etc/bobbin/hmac }");
    assertThat(s.auth()).isEqualTo(AuthMethod.TOKEN);
    assertThat(s.aclEnabled()).isTrue();
    assertThat(s.token().hmacKeyFile()).isEqualTo(Path.of("/etc/bobbin/hmac"));
    assertThat(with("bobbin.security { auth = token, token.hmac-key-file = k, acl-enable = false }").aclEnabled())
        .isFalse();
    assertThat(with("bobbin.security.acl-enable = true").aclEnabled()).isTrue();
  }

  @Test
  void staticMappingTakesHadoopsStringFormToo() {
    assertThat(with("bobbin.security.groups.static-mapping = \"dr.who=;alice=eng, ops\"").groups().staticMapping())
        .isEqualTo(Map.of("dr.who", List.of(), "alice", List.of("eng", "ops")));
    assertThat(with("bobbin.security.groups.static-mapping { bob = [qa] }").groups().staticMapping())
        .containsEntry("bob", List.of("qa"));
    assertThat(with("bobbin.security.groups.source = org.apache.hadoop.security.ShellBasedUnixGroupsMapping")
        .groups().source()).isEqualTo(GroupsSource.SHELL);
  }

  @Test
  void badValuesNameTheirKey() {
    assertThatThrownBy(() -> with("bobbin.security.auth = kerberos"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.security.auth").hasMessageContaining("kerberos");
    assertThatThrownBy(() -> with("bobbin.security.auth = token"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.security.token")
        .hasMessageContaining("hmac-key-file");
    assertThatThrownBy(() -> with("bobbin.security.groups.source = token"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.security.groups.source");
    assertThatThrownBy(() -> with("bobbin.security.groups.source = ldap"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("ldap");
    assertThatThrownBy(() -> with("bobbin.security { auth = token, token { jwks-url = \"ftp://x/keys\" } }"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.security.token.jwks-url");
    assertThatThrownBy(() -> with("bobbin.security.acl-enable = maybe"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.security.acl-enable");
    assertThatThrownBy(() -> with("bobbin.security.groups.cache-ttl = 0s"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("cache-ttl");
    assertThatThrownBy(() -> with("bobbin.security.groups.static-mapping = \"alice\""))
        .isInstanceOf(SettingsException.class).hasMessageContaining("static-mapping");
    assertThatThrownBy(() -> with("bobbin.security.token.issuer = \"\""))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.security.token.issuer");
  }
}
