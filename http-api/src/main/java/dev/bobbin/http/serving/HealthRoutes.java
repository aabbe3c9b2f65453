package dev.bobbin.http.serving;

import dev.bobbin.http.server.RemoteErrors;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.management.HealthCheckSettings;
import org.apache.pekko.management.javadsl.CheckResult;
import org.apache.pekko.management.javadsl.HealthChecks;

/**
 * {@code GET /ready} and {@code GET /alive}: Pekko Management's readiness and liveness checks, as
 * configured under {@code pekko.management.health-checks} (the member's own, {@link
 * MemberReadinessCheck} and {@link MemberLivenessCheck}, and any added there), answered as the
 * rest of the API answers: {@code 200 {"ready":true}} (or {@code "alive"}), else {@code 503} with
 * a {@code RemoteException} that gives the reasons. Served without authentication, to probes.
 */
public final class HealthRoutes extends AllDirectives {
  private final HealthChecks checks;

  public HealthRoutes(ActorSystem<?> system) {
    ExtendedActorSystem classic = (ExtendedActorSystem) Adapter.toClassic(system);
    this.checks = new HealthChecks(classic,
        HealthCheckSettings.create(classic.settings().config().getConfig("pekko.management.health-checks")));
  }

  public Route routes() {
    return concat(
        path("ready", () -> get(() -> completeWithFuture(answer(checks.readyResult(), "ready")))),
        path("alive", () -> get(() -> completeWithFuture(answer(checks.aliveResult(), "alive")))));
  }

  private static CompletionStage<HttpResponse> answer(CompletionStage<CheckResult> result, String what) {
    return result.handle((r, e) -> {
      if (e == null && r.isSuccess()) {
        return HttpResponse.create().withEntity(ContentTypes.APPLICATION_JSON, "{\"" + what + "\":true}");
      }
      NotReady ours = e == null ? null : notReady(e);
      String reason = ours != null ? ours.getMessage() : e == null ? r.failure().orElse("") : String.valueOf(
          (e instanceof CompletionException && e.getCause() != null ? e.getCause() : e).getMessage());
      return RemoteErrors.response(503, ours != null ? ours.exception() : ServeGate.RETRIABLE,
          "This RM member is not " + what + ": " + reason);
    });
  }

  /** Pekko wraps a failed check in exceptions of its own. */
  private static NotReady notReady(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof NotReady n) return n;
    return null;
  }
}
