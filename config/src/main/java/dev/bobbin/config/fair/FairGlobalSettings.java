package dev.bobbin.config.fair;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import dev.bobbin.config.SettingsException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The Fair Scheduler's scheduler-wide switches (Hadoop's {@code yarn.scheduler.fair.*} in
 * yarn-site.xml), from {@code bobbin.scheduler.fair}. A setting left out takes Hadoop's default.
 *
 * @param allocationFile a Hadoop {@code fair-scheduler.xml} to read the queues from; null to take
 *     them from HOCON
 * @param preemptionEnabled yarn.scheduler.fair.preemption
 * @param preemptionUtilizationThreshold yarn.scheduler.fair.preemption.cluster-utilization-threshold
 * @param waitTimeBeforeKill yarn.scheduler.fair.waitTimeBeforeKill
 * @param updateInterval yarn.scheduler.fair.update-interval-ms
 * @param userAsDefaultQueue yarn.scheduler.fair.user-as-default-queue; only used without a placement policy
 * @param allowUndeclaredPools yarn.scheduler.fair.allow-undeclared-pools; only used without a placement policy
 * @param localityThresholdNode yarn.scheduler.fair.locality.threshold.node: the share of the cluster's
 *     nodes a request passes up before it may be placed rack-local; -1 (Hadoop's default) for no delay
 * @param localityThresholdRack yarn.scheduler.fair.locality.threshold.rack: the share passed up again
 *     before it may be placed off-switch; -1 (Hadoop's default) for no delay
 */
public record FairGlobalSettings(
    Path allocationFile,
    boolean preemptionEnabled,
    double preemptionUtilizationThreshold,
    Duration waitTimeBeforeKill,
    Duration updateInterval,
    boolean userAsDefaultQueue,
    boolean allowUndeclaredPools,
    double localityThresholdNode,
    double localityThresholdRack) {

  /** Hadoop's value for no delay scheduling. */
  public static final double NO_DELAY = -1;

  public static final FairGlobalSettings HADOOP_DEFAULTS =
      new FairGlobalSettings(null, false, 0.8, Duration.ofMillis(15_000), Duration.ofMillis(500), true, true);

  public FairGlobalSettings {
    Objects.requireNonNull(waitTimeBeforeKill, "waitTimeBeforeKill");
    Objects.requireNonNull(updateInterval, "updateInterval");
  }

  /** Without delay scheduling. */
  public FairGlobalSettings(Path allocationFile, boolean preemptionEnabled, double preemptionUtilizationThreshold,
      Duration waitTimeBeforeKill, Duration updateInterval, boolean userAsDefaultQueue, boolean allowUndeclaredPools) {
    this(allocationFile, preemptionEnabled, preemptionUtilizationThreshold, waitTimeBeforeKill, updateInterval,
        userAsDefaultQueue, allowUndeclaredPools, NO_DELAY, NO_DELAY);
  }

  public static FairGlobalSettings from(Config root) {
    ConfigObject s = HoconFairReader.section(root);
    String at = HoconFairReader.SECTION;
    FairGlobalSettings h = HADOOP_DEFAULTS;
    boolean enabled = h.preemptionEnabled;
    double threshold = h.preemptionUtilizationThreshold;
    Duration wait = h.waitTimeBeforeKill;
    ConfigValue pv = HoconValues.present(s, "preemption");
    if (pv != null) {
      String pk = HoconValues.key(at, "preemption");
      ConfigObject p = HoconValues.object(pk, pv);
      HoconValues.unknownKeys(p, pk, Set.of("enabled", "cluster-utilization-threshold", "wait-before-kill"));
      if (HoconValues.present(p, "enabled") != null) {
        enabled = HoconValues.bool(HoconValues.key(pk, "enabled"), p.get("enabled"));
      }
      if (HoconValues.present(p, "cluster-utilization-threshold") != null) {
        String k = HoconValues.key(pk, "cluster-utilization-threshold");
        threshold = HoconValues.number(k, p.get("cluster-utilization-threshold"));
        if (threshold < 0 || threshold > 1) throw new SettingsException(k, "must be between 0 and 1, was " + threshold);
      }
      if (HoconValues.present(p, "wait-before-kill") != null) {
        wait = HoconValues.duration(HoconValues.key(pk, "wait-before-kill"), p.get("wait-before-kill"));
      }
    }
    Duration update = h.updateInterval;
    if (HoconValues.present(s, "update-interval") != null) {
      String k = HoconValues.key(at, "update-interval");
      update = HoconValues.duration(k, s.get("update-interval"));
      if (update.isZero()) throw new SettingsException(k, "must be positive");
    }
    Path file = null;
    if (HoconValues.present(s, "allocation-file") != null) {
      String f = HoconValues.string(HoconValues.key(at, "allocation-file"), s.get("allocation-file")).trim();
      file = f.isEmpty() ? null : Path.of(f);
    }
    return new FairGlobalSettings(
        file, enabled, threshold, wait, update,
        flag(s, "user-as-default-queue", h.userAsDefaultQueue),
        flag(s, "allow-undeclared-pools", h.allowUndeclaredPools),
        localityThreshold(s, "locality-threshold-node", h.localityThresholdNode),
        localityThreshold(s, "locality-threshold-rack", h.localityThresholdRack));
  }

  /**
   * A share of the cluster's nodes, or a negative value (Hadoop's -1) for no delay. Hadoop takes
   * any float and counts one above 1 as 1; a value above 1 is refused here, being a mistake.
   */
  private static double localityThreshold(ConfigObject s, String k, double fallback) {
    ConfigValue v = HoconValues.present(s, k);
    if (v == null) return fallback;
    String key = HoconValues.key(HoconFairReader.SECTION, k);
    double t = HoconValues.number(key, v);
    if (Double.isNaN(t) || t > 1) {
      throw new SettingsException(key, "must be a share of the nodes between 0 and 1, or -1 for no delay, was " + t);
    }
    return t;
  }

  private static boolean flag(ConfigObject s, String k, boolean fallback) {
    ConfigValue v = HoconValues.present(s, k);
    return v == null ? fallback : HoconValues.bool(HoconValues.key(HoconFairReader.SECTION, k), v);
  }
}
