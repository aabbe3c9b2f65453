package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;

/**
 * Rules that span queues, checked the same way for the allocation file and HOCON. Where Hadoop
 * only logs these (and then runs with surprising policies), we refuse the configuration.
 */
final class TreeChecks {
  private TreeChecks() {}

  static void check(QueueBuilder root, FairDefaults defaults) {
    if (root.get(QueueField.MAX_CONTAINER_ALLOCATION) != null) {
      throw new SettingsException(
          root.key(QueueField.MAX_CONTAINER_ALLOCATION),
          label(root, QueueField.MAX_CONTAINER_ALLOCATION)
              + " is not allowed on root; the scheduler's maximum allocation applies there");
    }
    walk(root, null, defaults);
  }

  private static void walk(QueueBuilder q, QueuePolicy parentPolicy, FairDefaults d) {
    QueuePolicy own = (QueuePolicy) q.get(QueueField.SCHEDULING_POLICY);
    QueuePolicy policy = own != null ? own : d.defaultQueueSchedulingPolicy();
    String policyKey = q.key(QueueField.SCHEDULING_POLICY);
    if (q.type() == QueueType.PARENT) {
      if (q.get(QueueField.MAX_AM_SHARE) != null) {
        throw new SettingsException(
            q.key(QueueField.MAX_AM_SHARE),
            label(q, QueueField.MAX_AM_SHARE) + " on a parent queue (" + q.path + "); it applies to leaf queues only");
      }
      if (policy == QueuePolicy.FIFO) {
        throw new SettingsException(
            policyKey, "fifo is for leaf queues only; parent queue " + q.path + " needs fair or drf");
      }
    }
    if (parentPolicy == QueuePolicy.FAIR && policy == QueuePolicy.DRF) {
      throw new SettingsException(
          policyKey,
          q.path + " would use drf" + (own == null ? " (the default)" : "")
              + " under a parent that uses fair; a fair parent's queues must use fair or fifo");
    }
    q.children.forEach(c -> walk(c, policy, d));
  }

  /** The field's name as the user wrote it: the key's last part. */
  private static String label(QueueBuilder q, QueueField f) {
    String key = q.key(f);
    return key.substring(Math.max(key.lastIndexOf('/'), key.lastIndexOf('.')) + 1);
  }
}
