package dev.bobbin.compat.fair;

import java.util.ArrayList;
import java.util.List;

/**
 * A cluster, a queue tree and the runnable applications in its leaves: the input both share
 * computations get.
 *
 * @param apps in the order the applications became runnable
 */
record ShareCase(long clusterMemory, int clusterVcores, QueueCase root, List<App> apps) {
  record App(String id, String queuePath, long startTime) {}

  ShareCase {
    apps = List.copyOf(apps);
  }

  String allocationXml() {
    StringBuilder out = new StringBuilder("<?xml version=\"1.0\"?>\n<allocations>\n");
    root.appendXml(out, "  ");
    return out.append("</allocations>\n").toString();
  }

  /** Applications in the order {@code QueueCase.apps} asks for, with distinct start times. */
  static List<App> appsOf(QueueCase root, List<Long> startTimes) {
    List<App> out = new ArrayList<>();
    collect(root, "root", startTimes, out);
    return out;
  }

  private static void collect(QueueCase q, String path, List<Long> startTimes, List<App> out) {
    for (int i = 0; i < q.apps(); i++) {
      out.add(new App("application_1_" + (1000 + out.size()), path, startTimes.get(out.size())));
    }
    for (QueueCase c : q.children()) collect(c, path + "." + c.name(), startTimes, out);
  }

  @Override
  public String toString() {
    return "cluster " + clusterMemory + " MB, " + clusterVcores + " vcores; apps " + apps + "\n" + allocationXml();
  }
}
