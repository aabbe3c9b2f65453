package dev.bobbin.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.security.TokenSettings;
import java.io.IOException;
import java.net.MalformedURLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys bearer tokens are verified with, from the configured sources: a JWKS file and a JWKS URL
 * (RS256 and ES256), and an HMAC key file (HS256). A token is verified only with a key of its
 * algorithm's type, so an RSA public key can never pass for an HMAC secret.
 */
record TokenKeys(JWKSource<SecurityContext> source, Set<JWSAlgorithm> algorithms) {
  private static final String SECTION = "bobbin.security.token.";

  static TokenKeys from(TokenSettings settings) {
    List<JWK> local = new ArrayList<>();
    Set<JWSAlgorithm> algorithms = new LinkedHashSet<>();
    if (settings.jwksFile() != null) {
      try {
        local.addAll(JWKSet.load(settings.jwksFile().toFile()).toPublicJWKSet().getKeys());
      } catch (IOException | java.text.ParseException e) {
        throw new SettingsException(SECTION + "jwks-file", "cannot read a JSON Web Key Set from "
            + settings.jwksFile() + ": " + e.getMessage());
      }
      algorithms.add(JWSAlgorithm.RS256);
      algorithms.add(JWSAlgorithm.ES256);
    }
    if (settings.hmacKeyFile() != null) {
      local.add(new OctetSequenceKey.Builder(HmacKeys.read(settings.hmacKeyFile(), SECTION + "hmac-key-file")).build());
      algorithms.add(JWSAlgorithm.HS256);
    }
    JWKSource<SecurityContext> fixed = new ImmutableJWKSet<>(new JWKSet(local));
    if (settings.jwksUrl() == null) return new TokenKeys(fixed, algorithms);
    JWKSource<SecurityContext> remote;
    try {
      remote = JWKSourceBuilder.create(settings.jwksUrl().toURL()).retrying(true).build();
    } catch (MalformedURLException e) {
      throw new SettingsException(SECTION + "jwks-url", e.getMessage());
    }
    algorithms.add(JWSAlgorithm.RS256);
    algorithms.add(JWSAlgorithm.ES256);
    JWKSource<SecurityContext> both = (selector, context) -> {
      List<JWK> keys = new ArrayList<>(fixed.get(selector, context));
      keys.addAll(remote.get(selector, context));
      return keys;
    };
    return new TokenKeys(both, algorithms);
  }
}
