package dev.bobbin.http;

import static org.apache.pekko.http.javadsl.server.Directives.parameterOptional;

import java.util.function.Function;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Who makes a request to the REST API: the one place the routes learn it. Today that is YARN's
 * simple authentication, the {@code user.name} query parameter, and {@code dr.who} (YARN's static
 * user) without one.
 */
final class Callers {
  static final String ANONYMOUS = "dr.who";

  private Callers() {}

  static Route caller(Function<String, Route> inner) {
    return parameterOptional("user.name", user -> inner.apply(user.filter(u -> !u.isBlank()).orElse(ANONYMOUS)));
  }
}
