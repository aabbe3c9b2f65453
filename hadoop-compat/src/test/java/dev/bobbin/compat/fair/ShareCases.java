package dev.bobbin.compat.fair;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Random Fair trees of the kinds operators write and of the kinds that find the algorithm's edges:
 * weights of 0 and fractional weights, over-subscribed mins, maxes below mins, maxes as absolute
 * amounts and as percentages, inactive queues, FIFO leaves, and clusters from a few GB to a hundred
 * TB.
 */
final class ShareCases {
  private ShareCases() {}

  private static final String[] WEIGHTS = {"1", "1", "1", "2", "0", "0.5", "0.1", "1.5", "3.7", "10", "0.333", "0.25"};

  static ShareCase generate(Random r) {
    boolean huge = r.nextInt(8) == 0;
    long memory = huge ? 10_000_000L + (long) (r.nextDouble() * 190_000_000L) : 1024L * (1 + r.nextInt(128)) + r.nextInt(1024);
    int vcores = huge ? 10_000 + r.nextInt(190_000) : 1 + r.nextInt(256);
    QueueCase root = queue(r, "root", "drf", r.nextBoolean() ? "drf" : "fair", 0, memory, vcores);
    int appCount = count(root);
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < appCount; i++) starts.add(1_000L + r.nextInt(1_000_000));
    return new ShareCase(memory, vcores, root, ShareCase.appsOf(root, starts));
  }

  private static QueueCase queue(Random r, String name, String parentPolicy, String policy, int depth, long memory, int vcores) {
    List<QueueCase> children = new ArrayList<>();
    boolean parent = depth == 0 || (depth < 3 && r.nextInt(3) == 0);
    if (parent) {
      int n = 1 + r.nextInt(4);
      for (int i = 0; i < n; i++) {
        children.add(queue(r, (depth == 0 ? "q" : name + "c") + i, policy, childPolicy(r, policy, depth + 1), depth + 1, memory, vcores));
      }
    } else if (policy.equals("fifo") || r.nextInt(4) == 0) {
      policy = childPolicyForLeaf(r, parentPolicy);
    }
    int apps = parent ? 0 : (r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(3));
    return new QueueCase(name, weight(r), min(r, memory, vcores), max(r, memory, vcores), policy, apps, children);
  }

  /** A FAIR parent may not have DRF children; FIFO is for leaves only (decided once a queue is a leaf). */
  private static String childPolicy(Random r, String parentPolicy, int depth) {
    if (parentPolicy.equals("fair")) return "fair";
    return r.nextBoolean() ? "drf" : "fair";
  }

  private static String childPolicyForLeaf(Random r, String parentPolicy) {
    int pick = r.nextInt(3);
    if (pick == 0) return "fifo";
    if (pick == 1 && parentPolicy.equals("drf")) return "drf";
    return "fair";
  }

  private static String weight(Random r) {
    if (r.nextInt(4) > 0) return WEIGHTS[r.nextInt(WEIGHTS.length)];
    return String.format(Locale.ROOT, "%.3f", r.nextDouble() * 20);
  }

  private static String min(Random r, long memory, int vcores) {
    if (r.nextInt(5) < 2) return null;
    long mem = (long) (memory * r.nextDouble() * (r.nextInt(6) == 0 ? 1.5 : 0.6));
    int cpu = (int) (vcores * r.nextDouble() * (r.nextInt(6) == 0 ? 1.5 : 0.6));
    return mem + " mb, " + cpu + " vcores";
  }

  private static String max(Random r, long memory, int vcores) {
    switch (r.nextInt(6)) {
      case 0, 1, 2:
        return null;
      case 3:
        return (long) (memory * r.nextDouble() * 1.5) + " mb, " + (int) (vcores * r.nextDouble() * 1.5) + " vcores";
      case 4:
        return percent(r) + "%";
      default:
        return "memory-mb=" + percent(r) + "%, vcores=" + percent(r) + "%";
    }
  }

  private static String percent(Random r) {
    return r.nextBoolean() ? String.valueOf(r.nextInt(101)) : String.format(Locale.ROOT, "%.1f", r.nextDouble() * 100);
  }

  private static int count(QueueCase q) {
    return q.apps() + q.children().stream().mapToInt(ShareCases::count).sum();
  }
}
