package dev.bobbin.http;

import dev.bobbin.protocol.rest.ClusterMetricsInfo;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * An RM member's meters: the cluster's figures, measured afresh for each scrape ({@link
 * ClusterMetrics}), and the JVM's own. The fields of YARN's cluster metrics that Bobbin does not
 * measure are not exported.
 */
final class RmMetrics {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicReference<ClusterMetricsInfo> latest = new AtomicReference<>();
  private final Supplier<CompletionStage<ClusterMetricsInfo>> measure;

  RmMetrics(Supplier<CompletionStage<ClusterMetricsInfo>> measure) {
    this.measure = measure;
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    gauge("bobbin.cluster.apps.submitted", "Applications the RM knows, in any state.",
        ClusterMetricsInfo::appsSubmitted);
    gauge("bobbin.cluster.apps.completed", "Applications that finished; those that failed or were killed are counted apart.",
        ClusterMetricsInfo::appsCompleted);
    gauge("bobbin.cluster.apps.pending", "Applications submitted or accepted, not yet running.",
        ClusterMetricsInfo::appsPending);
    gauge("bobbin.cluster.apps.running", "Applications running.", ClusterMetricsInfo::appsRunning);
    gauge("bobbin.cluster.apps.failed", "Applications that failed.", ClusterMetricsInfo::appsFailed);
    gauge("bobbin.cluster.apps.killed", "Applications that were killed.", ClusterMetricsInfo::appsKilled);
    gauge("bobbin.cluster.containers.allocated", "Containers allocated to applications now.",
        ClusterMetricsInfo::containersAllocated);
    gauge("bobbin.cluster.available.mb", "Memory of the nodes in service not allocated, in MB.",
        ClusterMetricsInfo::availableMB);
    gauge("bobbin.cluster.allocated.mb", "Memory allocated to containers, in MB.", ClusterMetricsInfo::allocatedMB);
    gauge("bobbin.cluster.total.mb", "Memory of the nodes in service (new, running, decommissioning), in MB.",
        ClusterMetricsInfo::totalMB);
    gauge("bobbin.cluster.available.virtual.cores", "Virtual cores of the nodes in service not allocated.",
        ClusterMetricsInfo::availableVirtualCores);
    gauge("bobbin.cluster.allocated.virtual.cores", "Virtual cores allocated to containers.",
        ClusterMetricsInfo::allocatedVirtualCores);
    gauge("bobbin.cluster.total.virtual.cores", "Virtual cores of the nodes in service.",
        ClusterMetricsInfo::totalVirtualCores);
    gauge("bobbin.cluster.total.nodes", "Nodes the scheduler knows: in service, unhealthy, lost, decommissioning,"
        + " decommissioned or shut down.", ClusterMetricsInfo::totalNodes);
    gauge("bobbin.cluster.active.nodes", "Nodes in service: new or running.", ClusterMetricsInfo::activeNodes);
    gauge("bobbin.cluster.lost.nodes", "Nodes lost: they stopped heartbeating.", ClusterMetricsInfo::lostNodes);
    gauge("bobbin.cluster.unhealthy.nodes", "Nodes that report themselves unhealthy: they take no new containers.",
        ClusterMetricsInfo::unhealthyNodes);
    gauge("bobbin.cluster.decommissioning.nodes", "Nodes decommissioning gracefully: their containers run on,"
        + " they take no new ones.", ClusterMetricsInfo::decommissioningNodes);
    gauge("bobbin.cluster.decommissioned.nodes", "Nodes taken out of service by an administrator.",
        ClusterMetricsInfo::decommissionedNodes);
    gauge("bobbin.cluster.shutdown.nodes", "Nodes whose NodeManager shut down.", ClusterMetricsInfo::shutdownNodes);
    FunctionCounter.builder("bobbin.cluster.allocations", latest, ref -> ref.get().totalAllocationsSinceStart())
        .description("Containers the scheduler allocated since it started.")
        .register(registry);
  }

  /** Measures the cluster, then renders every meter in the Prometheus text format. */
  CompletionStage<String> scrape() {
    return measure.get().thenApply(figures -> {
      latest.set(figures);
      return registry.scrape();
    });
  }

  private void gauge(String name, String help, ToDoubleFunction<ClusterMetricsInfo> value) {
    Gauge.builder(name, latest, ref -> value.applyAsDouble(ref.get())).description(help).register(registry);
  }
}
