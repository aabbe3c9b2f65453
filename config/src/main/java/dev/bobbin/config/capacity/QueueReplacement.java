package dev.bobbin.config.capacity;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SettingsException;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The refresh rules that compare the running queues with the new ones. */
final class QueueReplacement {
  private QueueReplacement() {}

  static void check(CapacitySchedulerConfig running, CapacitySchedulerConfig next, Set<String> queuesWithApps) {
    Set<String> busy = queuesWithApps.stream().map(q -> QueuePath.of(q).full()).collect(Collectors.toSet());
    Map<String, CapacityQueue> now = running.queues();
    Map<String, CapacityQueue> after = next.queues();
    for (CapacityQueue old : now.values()) {
      String path = old.path().full();
      CapacityQueue replacement = after.get(path);
      String key = QueueKey.of(old.path().isRoot() ? path : old.path().parent().full(), QueueKey.QUEUES);
      if (replacement == null) {
        if (old.state() != QueueState.STOPPED) {
          throw new SettingsException(
              key,
              path + " cannot be removed while it is " + old.state()
                  + "; set its state to STOPPED, let its applications finish, then remove it");
        }
        if (busy.contains(path)) {
          throw new SettingsException(key, path + " cannot be removed while it still holds applications; it is draining");
        }
      } else if (old.isLeaf() && !replacement.isLeaf()) {
        String childrenKey = QueueKey.of(path, QueueKey.QUEUES);
        if (old.state() != QueueState.STOPPED && replacement.state() != QueueState.STOPPED) {
          throw new SettingsException(childrenKey, "leaf queue " + path + " can become a parent queue only when STOPPED");
        }
        if (busy.contains(path)) {
          throw new SettingsException(childrenKey, "leaf queue " + path + " cannot become a parent queue while it holds applications");
        }
      }
    }
  }
}
