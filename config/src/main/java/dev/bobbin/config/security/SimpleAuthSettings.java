package dev.bobbin.config.security;

import java.nio.file.Path;
import java.time.Duration;

/**
 * YARN's pseudo authentication ({@code hadoop.http.authentication.simple.*}).
 *
 * @param anonymousAllowed whether a request naming no user is taken as {@code anonymousUser}
 * @param cookieValidity how long the signed {@code hadoop.auth} cookie stands for its user
 * @param cookieSecretFile the key that signs the cookie; null for a random key per process
 */
public record SimpleAuthSettings(boolean anonymousAllowed, String anonymousUser, Duration cookieValidity,
    Path cookieSecretFile) {}
