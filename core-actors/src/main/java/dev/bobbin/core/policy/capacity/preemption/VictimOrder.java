package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.capacity.CapacityQueueSpec;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.OrderingPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The order in which preemption looks at leaves, at a leaf's applications and at an application's
 * containers, as Hadoop's {@code FifoCandidatesSelector} does.
 */
final class VictimOrder {
  private static final Pattern APPLICATION = Pattern.compile("application_(\\d{1,19})_(\\d{1,10})");
  private static final Pattern CONTAINER =
      Pattern.compile("container_(?:e(\\d{1,19})_)?(\\d{1,19})_(\\d{1,10})_(\\d{1,10})_(\\d{1,19})");
  /** Where YARN keeps the epoch in a container's number. */
  private static final int EPOCH_SHIFT = 40;

  private VictimOrder() {}

  /**
   * The leaves in the order Hadoop visits them: that of the hash sets it collects their paths in.
   * The order matters once the round's allowance runs short: the leaves visited first give first.
   */
  static List<String> leaves(CapacityTree tree) {
    return new ArrayList<>(leavesUnder(tree.root()));
  }

  private static Set<String> leavesUnder(CapacityQueueSpec q) {
    if (q.isLeaf()) return Set.of(q.path());
    Set<String> out = new HashSet<>();
    for (CapacityQueueSpec c : q.children()) out.addAll(leavesUnder(c));
    return out;
  }

  /** A leaf's applications, the one the leaf would serve last first (the lowest priority, newest, ...). */
  static List<AppSnapshot> applications(OrderingPolicy policy, List<AppSnapshot> apps) {
    List<AppSnapshot> out = new ArrayList<>(apps);
    out.sort(served(policy).reversed());
    return out;
  }

  /**
   * The order a leaf serves its applications in. FIFO: higher priority, then older application id,
   * then earlier start. Fair: less memory used, then earlier start, then those with demand, then as FIFO
   * without priorities.
   */
  static Comparator<AppSnapshot> served(OrderingPolicy policy) {
    Comparator<AppSnapshot> fifo = (a, b) -> {
      int c = compareApplicationIds(a.appId(), b.appId());
      return c != 0 ? c : Long.compare(a.submitTime(), b.submitTime());
    };
    if (policy == OrderingPolicy.FAIR) {
      Comparator<AppSnapshot> fair = Comparator.<AppSnapshot>comparingLong(a -> a.usage().memory())
          .thenComparingLong(AppSnapshot::submitTime)
          .thenComparing(a -> a.demand().memory() == 0);
      return fair.thenComparing(fifo);
    }
    return Comparator.comparingInt(AppSnapshot::priority).reversed().thenComparing(fifo);
  }

  /**
   * An application's containers in the order they are taken: the least important request first
   * (larger priority number), then the later allocation request id, then the newest container.
   */
  static List<CandidateContainer> containers(List<CandidateContainer> containers) {
    List<CandidateContainer> out = new ArrayList<>(containers);
    out.sort(Comparator.comparingInt(CandidateContainer::requestPriority)
        .thenComparingLong(CandidateContainer::allocationRequestId)
        .thenComparing(CandidateContainer::containerId, VictimOrder::compareContainerIds)
        .reversed());
    return out;
  }

  /** As YARN compares application ids: cluster timestamp, then sequence number. */
  static int compareApplicationIds(String a, String b) {
    Matcher ma = APPLICATION.matcher(a);
    Matcher mb = APPLICATION.matcher(b);
    if (!ma.matches() || !mb.matches()) return a.compareTo(b);
    int c = Long.compare(Long.parseLong(ma.group(1)), Long.parseLong(mb.group(1)));
    return c != 0 ? c : Long.compare(Long.parseLong(ma.group(2)), Long.parseLong(mb.group(2)));
  }

  /** As YARN compares container ids: application, attempt, then the number with the epoch above the sequence. */
  static int compareContainerIds(String a, String b) {
    Matcher ma = CONTAINER.matcher(a);
    Matcher mb = CONTAINER.matcher(b);
    if (!ma.matches() || !mb.matches()) return a.compareTo(b);
    for (int g = 2; g <= 4; g++) {
      int c = Long.compare(Long.parseLong(ma.group(g)), Long.parseLong(mb.group(g)));
      if (c != 0) return c;
    }
    return Long.compare(number(ma), number(mb));
  }

  private static long number(Matcher m) {
    long epoch = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
    return epoch << EPOCH_SHIFT | Long.parseLong(m.group(5));
  }
}
