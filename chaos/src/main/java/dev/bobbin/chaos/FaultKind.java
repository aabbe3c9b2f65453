package dev.bobbin.chaos;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What is done to an RM member process, its network, the journal, or an application's AM. */
enum FaultKind {
  /** {@code kill -9} (Process.destroyForcibly), then a restart on the same ports. */
  KILL(Target.MEMBER),
  /** {@code kill -STOP} until another member has downed it, then {@code kill -CONT}; then a restart. */
  PAUSE(Target.MEMBER),
  /** {@code kill -TERM} (Process.destroy): a graceful leave, then a restart. */
  TERM(Target.MEMBER),
  /** The member's link goes down: it reaches nothing, and nothing reaches it, until it was downed. */
  ISOLATE(Target.NETWORK),
  /** The member and the other members cannot reach each other; PostgreSQL and the NodeManagers stay reachable. */
  PARTITION(Target.NETWORK),
  /** A share of every packet the member sends is dropped; what it receives arrives. */
  LOSS(Target.NETWORK),
  /** The member's link, both ways, limited to a low rate with a deep queue. */
  SLOW(Target.NETWORK),
  /** A cluster-only partition, then SIGSTOP until the others have downed it, then SIGCONT still cut off. */
  PARTITION_PAUSE(Target.NETWORK),
  /** PostgreSQL stopped, then started again on the same data directory and port. */
  JOURNAL_STOP(Target.JOURNAL),
  /** PostgreSQL's server and backends stopped with SIGSTOP, then SIGCONT. */
  JOURNAL_FREEZE(Target.JOURNAL),
  /** SIGKILL to the AM process of a running long-running application, which keeps its containers across attempts. */
  AM_KILL(Target.APPLICATION);

  /** What a fault acts on: a member's process, a member's network, the journal's database, or an AM's process. */
  enum Target { MEMBER, NETWORK, JOURNAL, APPLICATION }

  final Target target;

  FaultKind(Target target) {
    this.target = target;
  }

  /** As {@code --faults} writes it: {@code kill}, {@code partition-pause}, {@code journal-stop}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static Optional<FaultKind> ofLabel(String label) {
    return Arrays.stream(values()).filter(k -> k.label().equals(label)).findFirst();
  }

  /** After it, the cluster is measured from the moment the partition healed or the journal returned. */
  boolean heals() {
    return target == Target.NETWORK || target == Target.JOURNAL;
  }
}
