package dev.bobbin.http.server;

import static org.apache.pekko.http.javadsl.server.Directives.reject;

import dev.bobbin.protocol.Ids;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.Rejections;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Ids in request paths, checked against YARN's formats ({@link Ids}) before anything is looked up
 * with them. One that does not parse is a 400 naming it; one that parses may still be unknown (404).
 * A refusal is a rejection, so that a method the path does not serve is still a 405.
 */
public final class PathIds {
  private PathIds() {}

  public static Route applicationId(String id, Supplier<Route> inner) {
    return checked(id, Ids::isApplicationId, "ApplicationId", inner);
  }

  public static Route attemptId(String id, Supplier<Route> inner) {
    return checked(id, Ids::isAttemptId, "AppAttemptId", inner);
  }

  public static Route containerId(String id, Supplier<Route> inner) {
    return checked(id, Ids::isContainerId, "ContainerId", inner);
  }

  public static Route nodeId(String id, Supplier<Route> inner) {
    return checked(id, Ids::isNodeId, "NodeId", inner);
  }

  private static Route checked(String id, Predicate<String> valid, String what, Supplier<Route> inner) {
    return valid.test(id) ? inner.get() : reject(Rejections.validationRejection("Invalid " + what + ": " + id));
  }
}
