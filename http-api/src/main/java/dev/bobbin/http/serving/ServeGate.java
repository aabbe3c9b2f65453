package dev.bobbin.http.serving;

import dev.bobbin.http.server.RemoteErrors;
import dev.bobbin.protocol.WirePaths;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.HttpMethod;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * What every request to an RM member passes first, so that callers go to a member that can serve
 * them instead of waiting on one that cannot. A member that has not joined the cluster yet, or was
 * downed, answers nothing (the health checks and the cluster's management endpoints stand before
 * the gate). A member cut off from the majority ({@link Standing}) keeps answering reads (its
 * views may be stale) and refuses writes: every POST, PUT and DELETE,
 * which includes all NodeManager and ApplicationMaster calls. A member whose journal does not
 * answer ({@link JournalHealth}) refuses writes too, at once, instead of letting them wait for
 * entities that cannot recover or persist; only NodeManager heartbeats and AM allocate calls, which
 * the scheduler answers from memory, still pass. Each refusal is a 503 {@code RemoteException} that
 * says why: {@code StandbyException} for membership (another member can serve), {@code
 * RetriableException} for the journal (try again shortly).
 *
 * <p>Whether the member is ready, and alive, is for {@link HealthRoutes} to say: they stand in front
 * of the gate.
 */
public final class ServeGate extends AllDirectives {
  static final String STANDBY = "org.apache.hadoop.ipc.StandbyException";
  static final String RETRIABLE = RemoteErrors.RETRIABLE;
  /**
   * The scheduler answers these from memory: a heartbeat with what it has for the node, an allocate
   * with what it has for the attempt (new containers only once their writes are done). Answering
   * them through a journal outage keeps NodeManagers and AMs with this member, instead of backing
   * off for up to 10 s each and coming back late when the journal does.
   */
  private static final Set<String> ANSWERED_FROM_MEMORY = Set.of(WirePaths.NM_HEARTBEAT, WirePaths.AM_ALLOCATE);
  private final Supplier<Standing> standing;
  private final Supplier<JournalHealth.Status> journal;

  public ServeGate(Supplier<Standing> standing, Supplier<JournalHealth.Status> journal) {
    this.standing = standing;
    this.journal = journal;
  }

  /** {@code inner} behind the gate. */
  public Route routes(Supplier<Route> inner) {
    return extractRequest(r -> {
      HttpResponse refused = refusal(r.method(), r.getUri().path());
      return refused != null ? complete(refused) : inner.get();
    });
  }

  /** Null when a request with this method to this path may pass. */
  HttpResponse refusal(HttpMethod method, String path) {
    Standing s = standing.get();
    if (!s.servesReads()) return notServing(s);
    if (isRead(method)) return null;
    if (!s.servesWrites()) return notServing(s);
    JournalHealth.Status j = journal.get();
    if (!j.reachable() && !ANSWERED_FROM_MEMORY.contains(path)) {
      return RemoteErrors.response(503, RETRIABLE, "This RM member cannot write now: " + j.reason() + "; retry shortly");
    }
    return null;
  }

  private static HttpResponse notServing(Standing s) {
    return RemoteErrors.response(503, STANDBY, "This RM member does not serve "
        + (s.servesReads() ? "writes" : "requests") + ": " + s.reason() + "; ask another member");
  }

  private static boolean isRead(HttpMethod m) {
    return m.equals(HttpMethods.GET) || m.equals(HttpMethods.HEAD) || m.equals(HttpMethods.OPTIONS);
  }
}
