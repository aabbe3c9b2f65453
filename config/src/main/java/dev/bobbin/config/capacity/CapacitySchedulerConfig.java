package dev.bobbin.config.capacity;

import com.typesafe.config.Config;
import dev.bobbin.config.QueuePath;
import dev.bobbin.config.security.AccessControlList;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Capacity Scheduler's configuration: Hadoop's {@code capacity-scheduler.xml} with the
 * scheduler keys of {@code yarn-site.xml} ({@link #parse}), or the HOCON section
 * {@code bobbin.scheduler.capacity} ({@link #fromHocon}); both give equal values for the same
 * settings. Loading refuses an invalid value with a {@link dev.bobbin.config.SettingsException}
 * naming the key, and logs a warning for each key that has no effect ({@link #warnings}).
 *
 * @param root the root queue, with every configured queue below it
 * @param schedulerWide the settings that are not per queue
 * @param preemption proportional capacity preemption
 * @param queueMappings yarn.scheduler.capacity.queue-mappings, then the application-name mappings,
 *     in the order they are tried
 * @param queueMappingsOverride yarn.scheduler.capacity.queue-mappings-override.enable: a mapping
 *     also applies when the submission names a queue
 * @param warnings the keys that were given but have no effect, with the reason, in file order
 */
public record CapacitySchedulerConfig(
    CapacityQueue root,
    SchedulerWideSettings schedulerWide,
    PreemptionSettings preemption,
    List<QueueMapping> queueMappings,
    boolean queueMappingsOverride,
    List<ConfigWarning> warnings) {

  private static final Logger LOG = LoggerFactory.getLogger(CapacitySchedulerConfig.class);

  public CapacitySchedulerConfig {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(schedulerWide, "schedulerWide");
    Objects.requireNonNull(preemption, "preemption");
    if (!root.path().isRoot()) throw new IllegalArgumentException("the root queue must be root, was " + root.path());
    queueMappings = List.copyOf(queueMappings);
    warnings = List.copyOf(warnings);
  }

  // ---- loading

  /**
   * Reads Hadoop's files.
   *
   * @param capacityScheduler capacity-scheduler.xml
   * @param yarnSite yarn-site.xml, or null; only its scheduler keys are read, the rest is not the
   *     scheduler's business and passes without a word
   */
  public static CapacitySchedulerConfig parse(Path capacityScheduler, Path yarnSite) {
    List<HadoopXml.Source> sources = new ArrayList<>();
    if (yarnSite != null) sources.add(HadoopXml.open(yarnSite));
    sources.add(HadoopXml.open(capacityScheduler));
    return logged(CapacityConfigReader.read(HadoopXml.read(sources, VariableLookup.SYSTEM)));
  }

  /** Reads a capacity-scheduler.xml; {@code name} names it in errors. */
  public static CapacitySchedulerConfig parse(InputStream capacityScheduler, String name) {
    return logged(CapacityConfigReader.read(HadoopXml.read(List.of(new HadoopXml.Source(capacityScheduler, name)), VariableLookup.SYSTEM)));
  }

  /** The queues and settings of the {@code bobbin.scheduler.capacity} section alone. */
  public static CapacitySchedulerConfig fromHocon(Config root) {
    return logged(CapacityConfigReader.read(HoconCapacityReader.read(root, true, true)));
  }

  /**
   * The configuration the settings point at: {@code bobbin.scheduler.capacity.capacity-file} (a
   * capacity-scheduler.xml) and {@code yarn-site-file} when set, else the section itself. What a
   * file gives must not be given in the section too. Without a yarn-site file, or where it does
   * not set them, the allocation bounds are {@code bobbin.scheduler.minimum-allocation} and
   * {@code maximum-allocation}.
   */
  public static CapacitySchedulerConfig load(Config root) {
    Path capacityFile = HoconCapacityReader.file(root, HoconCapacityReader.CAPACITY_FILE);
    Path yarnSite = HoconCapacityReader.file(root, HoconCapacityReader.YARN_SITE_FILE);
    HadoopProperties hocon = HoconCapacityReader.read(root, capacityFile == null, yarnSite == null);
    List<HadoopXml.Source> files = new ArrayList<>();
    if (yarnSite != null) files.add(HadoopXml.open(yarnSite));
    if (capacityFile != null) files.add(HadoopXml.open(capacityFile));
    HadoopProperties all = files.isEmpty() ? hocon : HadoopProperties.combine(List.of(hocon, HadoopXml.read(files, VariableLookup.SYSTEM)));
    return logged(CapacityConfigReader.read(all));
  }

  private static CapacitySchedulerConfig logged(CapacitySchedulerConfig c) {
    for (ConfigWarning w : c.warnings) LOG.warn("Capacity scheduler configuration: {}: {}", w.key(), w.reason());
    return c;
  }

  // ---- queries

  /** Every queue by full path, parents before their children. */
  public Map<String, CapacityQueue> queues() {
    return new QueueIndex(root).all();
  }

  /** The leaf queues, where applications run, in tree order. */
  public List<CapacityQueue> leafQueues() {
    return queues().values().stream().filter(CapacityQueue::isLeaf).toList();
  }

  /**
   * A queue by full path ({@code root.a.a1}), by path below root ({@code a.a1}), or by its name
   * alone ({@code a1}) when no other queue has that name, as Hadoop resolves queue names.
   */
  public Optional<CapacityQueue> queue(String name) {
    QueueIndex index = new QueueIndex(root);
    Optional<CapacityQueue> q = index.find(name);
    if (q.isPresent() || !name.contains(".")) return q;
    return index.find(QueuePath.of(name).full());
  }

  /** Whether the name alone could mean more than one queue (then only its full path names it). */
  public boolean isAmbiguous(String name) {
    return new QueueIndex(root).isAmbiguous(name);
  }

  /** The keys that have no effect: unknown to Hadoop, not supported yet, or for queues not in the tree. */
  public Set<String> unknownKeys() {
    Set<String> out = new LinkedHashSet<>();
    warnings.forEach(w -> out.add(w.key()));
    return out;
  }

  /**
   * Whether the user may submit to the queue: its or an ancestor's acl_submit_applications or
   * acl_administer_queue allows it, as Hadoop checks queue ACLs.
   */
  public boolean maySubmit(String queue, String user, Collection<String> groups) {
    return allowed(queue, q -> q.aclSubmitApplications(), user, groups) || mayAdminister(queue, user, groups);
  }

  /** Whether the user may administer the queue: its or an ancestor's acl_administer_queue allows it. */
  public boolean mayAdminister(String queue, String user, Collection<String> groups) {
    return allowed(queue, q -> q.aclAdministerQueue(), user, groups);
  }

  private boolean allowed(String queue, Function<CapacityQueue, AccessControlList> acl, String user, Collection<String> groups) {
    Map<String, CapacityQueue> all = queues();
    CapacityQueue q = queue(queue).orElse(null);
    for (QueuePath p = q == null ? null : q.path(); p != null; p = p.parent()) {
      if (acl.apply(all.get(p.full())).allows(user, groups)) return true;
    }
    return false;
  }

  /**
   * Refuses to replace the running configuration by this one where Hadoop's refresh of the queues
   * refuses: a queue that leaves the tree must be STOPPED in the running configuration and hold no
   * applications (a STOPPED queue still holding some is draining), and a leaf queue becomes a parent
   * only when STOPPED in either and holding none. The checks of the new configuration on its own
   * ran when it was loaded.
   *
   * @param queuesWithApps the queues (full paths or paths below root) that hold applications now
   * @throws dev.bobbin.config.SettingsException naming the queue and the reason
   */
  public void checkReplacement(CapacitySchedulerConfig running, Set<String> queuesWithApps) {
    QueueReplacement.check(running, this, queuesWithApps);
  }
}
