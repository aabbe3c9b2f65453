package dev.bobbin.node.health;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A health verdict, as YARN's NodeHealthStatus: whether healthy, why not (or what is amiss while
 * still healthy, such as one failed disk of several), and when it was reached (epoch ms). The
 * node's verdict joins those of its checks.
 */
public record NodeHealth(boolean healthy, String report, long checkedAt) {
  /** Between parts of a joined report, as YARN joins them. */
  static final String SEPARATOR = ";";

  public NodeHealth {
    report = report == null ? "" : report;
  }

  public static NodeHealth healthy(long at) {
    return new NodeHealth(true, "", at);
  }

  public static NodeHealth unhealthy(String report, long at) {
    return new NodeHealth(false, report, at);
  }

  /** Healthy when every part is; the parts' reports that say something, joined; the latest time. */
  public static NodeHealth of(NodeHealth... parts) {
    return new NodeHealth(
        Arrays.stream(parts).allMatch(NodeHealth::healthy),
        Arrays.stream(parts).map(NodeHealth::report).filter(r -> !r.isBlank()).collect(Collectors.joining(SEPARATOR)),
        Arrays.stream(parts).mapToLong(NodeHealth::checkedAt).max().orElse(0));
  }
}
