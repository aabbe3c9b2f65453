package dev.bobbin.compat.fair;

import dev.bobbin.config.fair.AllocationFileParser;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.fair.FairQueueTree;
import dev.bobbin.core.policy.fair.FairShareCalculator;
import dev.bobbin.core.policy.fair.FairShares;
import dev.bobbin.core.policy.fair.QueueSpec;
import dev.bobbin.protocol.Resource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The shares Bobbin gives a {@link ShareCase}, the way the RM computes them: allocation file, tree, calculator. */
final class BobbinFairShares {
  private BobbinFairShares() {}

  static HadoopFairShares.Shares compute(ShareCase c) {
    FairSchedulerConfig config = AllocationFileParser.parse(
        new ByteArrayInputStream(c.allocationXml().getBytes(StandardCharsets.UTF_8)), "generated allocation file");
    Resource cluster = new Resource(c.clusterMemory(), c.clusterVcores());
    QueueSpec root = FairQueueTree.build(config, Map.of(), cluster);
    List<AppSnapshot> apps = c.apps().stream()
        .map(a -> new AppSnapshot(a.id(), a.id().replace("application", "appattempt") + "_000001", a.queuePath(), 0,
            a.startTime(), Resource.NONE, Resource.NONE, Resource.NONE, Resource.NONE))
        .toList();
    FairShares shares = FairShareCalculator.compute(root, cluster, apps);
    HadoopFairShares.Shares out = new HadoopFairShares.Shares(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
    shares.queues().forEach((path, q) -> {
      out.steady().put(path, Amount.of(q.steadyFairShare()));
      out.fair().put(path, Amount.of(q.fairShare()));
    });
    shares.apps().forEach((id, r) -> out.apps().put(id, Amount.of(r)));
    return out;
  }
}
