package dev.bobbin.http;

import static dev.bobbin.http.JsonResponses.error;
import static dev.bobbin.http.JsonResponses.failure;
import static dev.bobbin.http.JsonResponses.ok;

import dev.bobbin.core.RmCore;
import dev.bobbin.core.base.Retrying;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.core.trust.NodeProof;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.FinishAmRequest;
import dev.bobbin.protocol.am.RegisterAmRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.UnregisterNodeRequest;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;

/**
 * Bobbin's own NM (ResourceTracker) and AM (ApplicationMasterProtocol) endpoints. A NodeManager's
 * call is read only once it has proven that the node belongs to the cluster; an AM's, once its AM
 * token checks.
 */
final class ProtocolRoutes extends AllDirectives {
  private static final String AM_EXCEPTIONS = "org.apache.hadoop.yarn.exceptions.";
  private static final String NOT_AUTHENTICATED =
      "org.apache.hadoop.security.authentication.client.AuthenticationException";
  private static final String INVALID_TOKEN = "org.apache.hadoop.security.token.SecretManager$InvalidToken";
  private final RmCore core;

  ProtocolRoutes(RmCore core) {
    this.core = core;
  }

  Route routes() {
    return concat(
        nodeCall(WirePaths.NM_REGISTER, RegisterNodeRequest.class, core::registerNode, (req, resp) -> resp),
        nodeCall(WirePaths.NM_HEARTBEAT, NodeHeartbeatRequest.class, core::heartbeat,
            (NodeHeartbeatRequest req, NodeHeartbeatResponse resp) -> core.guard().withNodeKeys(req, resp)),
        nodeCall(WirePaths.NM_UNREGISTER, UnregisterNodeRequest.class, core::unregisterNode, (req, resp) -> resp),
        amCall(WirePaths.AM_REGISTER, RegisterAmRequest.class, core::registerAm, (id, o) -> o),
        amCall(WirePaths.AM_ALLOCATE, AllocateRequest.class, core::allocate, core.guard()::withRenewedAmToken),
        amCall(WirePaths.AM_FINISH, FinishAmRequest.class, core::finishAm, (id, o) -> o));
  }

  /** @param answered what the node is sent, from its request and the answer */
  private <T, R> Route nodeCall(String path, Class<T> type, Function<T, CompletionStage<R>> op,
      BiFunction<T, R, R> answered) {
    return path(segments(path), () -> post(() -> optionalHeaderValueByName(WirePaths.NODE_CREDENTIAL_HEADER,
        credential -> entity(Unmarshaller.entityToByteArray(), body -> {
          Optional<String> refused = core.guard().nodeRefusal(NodeProof.ofCredential(credential.orElse(null)));
          if (refused.isPresent()) {
            return complete(error(401, NOT_AUTHENTICATED, "NodeManager not authenticated: " + refused.get()));
          }
          T request;
          CompletionStage<R> result;
          try {
            request = Bodies.read(body, type);
            result = op.apply(request);
          } catch (RuntimeException e) {
            return answer(CompletableFuture.<R>failedFuture(e), JsonResponses::ok);
          }
          return answer(result, r -> ok(answered.apply(request, r)));
        }))));
  }

  /** @param answered what the AM is sent, from its verified token and the answer */
  private <T, R> Route amCall(String path, Class<T> type,
      BiFunction<String, T, CompletionStage<SchedulerProtocol.AmOutcome<R>>> op,
      BiFunction<Tokens.AmTokenIdentifier, SchedulerProtocol.AmOutcome<R>, SchedulerProtocol.AmOutcome<R>> answered) {
    return path(segments(path), () -> post(() -> optionalHeaderValueByName(WirePaths.AM_TOKEN_HEADER, token ->
        entity(Unmarshaller.entityToByteArray(), body -> onComplete(core.guard().verifyAmToken(token.orElse(null)), verified -> {
          if (verified.isFailure()) {
            Throwable e = Retrying.cause(verified.failed().get());
            return complete(e instanceof Tokens.InvalidTokenException
                ? error(401, INVALID_TOKEN, "Invalid AMRMToken: " + e.getMessage()) : failure(e));
          }
          Tokens.AmTokenIdentifier caller = verified.get();
          CompletionStage<SchedulerProtocol.AmOutcome<R>> result;
          try {
            result = op.apply(caller.attemptId(), Bodies.read(body, type));
          } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
          }
          return answer(result, o -> outcome(answered.apply(caller, o)));
        })))));
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
