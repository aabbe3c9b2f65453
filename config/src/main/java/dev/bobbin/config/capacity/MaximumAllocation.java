package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import java.util.List;

/**
 * A queue's largest container as Hadoop resolves it: the parent's (root: the cluster's), replaced
 * by {@code maximum-allocation} when set, else resource by resource by
 * {@code maximum-allocation-mb} and {@code -vcores} (-1 meaning not set); never above the cluster's.
 */
final class MaximumAllocation {
  private MaximumAllocation() {}

  static MaximumAllocationText.Allocation of(
      QueueSettings s, MaximumAllocationText.Allocation parent, SchedulerWideSettings w, List<ConfigWarning> warnings) {
    long mb = parent == null ? w.maximumAllocationMb() : parent.memoryMb();
    int vcores = parent == null ? w.maximumAllocationVcores() : parent.vcores();
    String resource = s.text(QueueKey.MAXIMUM_ALLOCATION);
    String mbText = s.text(QueueKey.MAXIMUM_ALLOCATION_MB);
    String vcoresText = s.text(QueueKey.MAXIMUM_ALLOCATION_VCORES);
    String key;
    if (resource != null && !resource.isBlank()) {
      key = s.where(QueueKey.MAXIMUM_ALLOCATION);
      MaximumAllocationText.Allocation own = MaximumAllocationText.parse(key, resource);
      mb = own.memoryMb();
      vcores = own.vcores();
      for (QueueKey ignored : List.of(QueueKey.MAXIMUM_ALLOCATION_MB, QueueKey.MAXIMUM_ALLOCATION_VCORES)) {
        if (s.text(ignored) != null) {
          warnings.add(new ConfigWarning(s.where(ignored), "has no effect: " + key + " is set and takes precedence, as in Hadoop"));
        }
      }
    } else {
      String mbKey = s.where(QueueKey.MAXIMUM_ALLOCATION_MB);
      String vcoresKey = s.where(QueueKey.MAXIMUM_ALLOCATION_VCORES);
      key = mbText != null ? mbKey : vcoresKey;
      long ownMb = mbText == null ? -1 : own(mbKey, Numbers.longValue(mbKey, mbText));
      long ownVcores = vcoresText == null ? -1 : own(vcoresKey, Numbers.integer(vcoresKey, vcoresText));
      if (ownMb != -1) mb = ownMb;
      if (ownVcores != -1) vcores = (int) ownVcores;
    }
    if (mb > w.maximumAllocationMb() || vcores > w.maximumAllocationVcores()) {
      throw new SettingsException(
          key, "the maximum allocation of " + s.path + " (" + mb + " MB, " + vcores + " vcores) is above the cluster's ("
              + w.maximumAllocationMb() + " MB, " + w.maximumAllocationVcores()
              + " vcores: yarn.scheduler.maximum-allocation-mb and -vcores)");
    }
    return new MaximumAllocationText.Allocation(mb, vcores);
  }

  private static long own(String key, long n) {
    if (n != -1 && n <= 0) throw new SettingsException(key, "must be above 0, or -1 for the parent's, was " + n);
    return n;
  }
}
