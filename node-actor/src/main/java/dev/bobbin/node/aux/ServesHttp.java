package dev.bobbin.node.aux;

import org.apache.pekko.http.javadsl.server.Route;

/**
 * An auxiliary service with its own HTTP resources, served by the NodeManager's HTTP server under
 * {@code /aux/<service name>/}; the route sees the rest of the path. The NodeManager asks no user
 * credentials there: the service authenticates its callers itself.
 */
public interface ServesHttp {
  Route route();
}
