package dev.bobbin.http.serving;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.ActorSystem;

/**
 * Pekko Management's readiness check of an RM member ({@code
 * pekko.management.health-checks.readiness-checks}): ready once it serves everything. It is up in
 * the cluster and on the majority's side, its journal answers, and its shard regions have
 * registered with their coordinators. Not ready, it fails with every reason ({@link NotReady}).
 */
public final class MemberReadinessCheck implements Supplier<CompletionStage<Boolean>> {
  static final String NOT_STARTED = "this member has not started its shard regions and HTTP API yet";
  private final MemberSignals signals;

  public MemberReadinessCheck(ActorSystem system) {
    this.signals = MemberSignals.get(system);
  }

  @Override
  public CompletionStage<Boolean> get() {
    MemberSignals.Signals s = signals.current().orElse(null);
    if (s == null) return CompletableFuture.failedFuture(new NotReady(ServeGate.RETRIABLE, List.of(NOT_STARTED)));
    Standing standing = s.standing().get();
    List<String> reasons = new ArrayList<>();
    if (!standing.servesWrites()) reasons.add(standing.reason());
    JournalHealth.Status journal = s.journal().get();
    if (!journal.reachable()) reasons.add(journal.reason());
    String exception = standing.servesWrites() ? ServeGate.RETRIABLE : ServeGate.STANDBY;
    // A member that is not up has no region registered: its standing says all there is to say.
    if (!standing.servesReads()) return CompletableFuture.failedFuture(new NotReady(exception, reasons));
    return s.regionsDown().get().thenApply(down -> {
      if (!down.isEmpty()) {
        reasons.add("its shard region(s) " + String.join(", ", down) + " have not registered with their coordinator yet");
      }
      if (!reasons.isEmpty()) throw new NotReady(exception, reasons);
      return true;
    });
  }
}
