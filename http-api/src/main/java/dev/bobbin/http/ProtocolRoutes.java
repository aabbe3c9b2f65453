package dev.bobbin.http;

import static dev.bobbin.http.JsonResponses.error;
import static dev.bobbin.http.JsonResponses.failure;
import static dev.bobbin.http.JsonResponses.ok;

import dev.bobbin.core.RmCore;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.FinishAmRequest;
import dev.bobbin.protocol.am.RegisterAmRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;

/** Bobbin's own NM (ResourceTracker) and AM (ApplicationMasterProtocol) endpoints. */
final class ProtocolRoutes extends AllDirectives {
  private static final String AM_EXCEPTIONS = "org.apache.hadoop.yarn.exceptions.";
  private final RmCore core;

  ProtocolRoutes(RmCore core) {
    this.core = core;
  }

  Route routes() {
    return concat(
        nodeCall(WirePaths.NM_REGISTER, RegisterNodeRequest.class, core::registerNode),
        nodeCall(WirePaths.NM_HEARTBEAT, NodeHeartbeatRequest.class, core::heartbeat),
        amCall(WirePaths.AM_REGISTER, RegisterAmRequest.class, core::registerAm),
        amCall(WirePaths.AM_ALLOCATE, AllocateRequest.class, core::allocate),
        amCall(WirePaths.AM_FINISH, FinishAmRequest.class, core::finishAm));
  }

  private <T, R> Route nodeCall(String path, Class<T> type, Function<T, CompletionStage<R>> op) {
    return path(segments(path), () -> post(() -> entity(Unmarshaller.entityToByteArray(), body -> {
      CompletionStage<R> result;
      try {
        result = op.apply(Bodies.read(body, type));
      } catch (RuntimeException e) {
        result = CompletableFuture.failedFuture(e);
      }
      return answer(result, JsonResponses::ok);
    })));
  }

  private <T, R> Route amCall(String path, Class<T> type,
      BiFunction<String, T, CompletionStage<SchedulerProtocol.AmOutcome<R>>> op) {
    return path(segments(path), () -> post(() -> optionalHeaderValueByName(WirePaths.AM_TOKEN_HEADER, token ->
        entity(Unmarshaller.entityToByteArray(), body -> {
          CompletionStage<SchedulerProtocol.AmOutcome<R>> result;
          try {
            String attemptId = core.verifyAmToken(token.orElse(null)).attemptId();
            result = op.apply(attemptId, Bodies.read(body, type));
          } catch (Tokens.InvalidTokenException e) {
            return complete(error(401, "org.apache.hadoop.security.token.SecretManager$InvalidToken",
                "Invalid AMRMToken: " + e.getMessage()));
          } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
          }
          return answer(result, ProtocolRoutes::outcome);
        }))));
  }

  /**
   * Continues on the route's dispatcher straight from the thread that answered the ask. Mapping
   * the ask's stage first ({@code thenApply}) would run the mapping on the common pool: Pekko's
   * ask stages run even their non-async callbacks there, one more parked thread to wake per call.
   */
  private <R> Route answer(CompletionStage<R> result, Function<R, HttpResponse> response) {
    return onComplete(result, t -> complete(t.isSuccess() ? response.apply(t.get()) : failure(t.failed().get())));
  }

  private static <R> HttpResponse outcome(SchedulerProtocol.AmOutcome<R> o) {
    if (o.exception() == null) return ok(o.response());
    int status = o.exception().equals("ApplicationAttemptNotFoundException") ? 404 : 400;
    return error(status, AM_EXCEPTIONS + o.exception(), o.message());
  }

  private static org.apache.pekko.http.javadsl.server.PathMatcher0 segments(String path) {
    return org.apache.pekko.http.javadsl.server.PathMatchers.separateOnSlashes(path.substring(1));
  }

}
