package dev.bobbin.node.http;

import dev.bobbin.node.NodeView;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * The NodeManager's {@code /metrics}: its containers, resources and RM link, read from the node's
 * view at each scrape, and the JVM's own figures. Node meters carry the node id as {@code node}.
 */
public final class NodeMetrics {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicReference<NodeView> latest = new AtomicReference<>();
  private final AtomicBoolean nodeMetersRegistered = new AtomicBoolean();

  public NodeMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  /** The Prometheus text exposition with the node's figures from {@code view}. */
  public String scrape(NodeView view) {
    latest.set(view);
    registerNodeMeters(view.identity().nodeId());
    return registry.scrape();
  }

  // The node id is known once the HTTP port is bound, so the node's meters wait for its first view.
  private void registerNodeMeters(String nodeId) {
    if (!nodeMetersRegistered.compareAndSet(false, true)) return;
    Tags node = Tags.of("node", nodeId);
    gauge("bobbin.nm.containers.running", "Containers running on this node.", node, NodeView::runningContainers);
    counter("bobbin.nm.containers.launched", "Container processes started.", node, NodeView::launchedTotal);
    counter("bobbin.nm.containers.completed", "Containers that finished, however they ended.", node,
        NodeView::completedTotal);
    gauge("bobbin.nm.allocated.memory.mb", "Memory of the live containers, in MB.", node, v -> v.allocated().memory());
    gauge("bobbin.nm.allocated.vcores", "Virtual cores of the live containers.", node, v -> v.allocated().vCores());
    gauge("bobbin.nm.capacity.memory.mb", "Memory this node offers to containers, in MB.", node,
        v -> v.capability().memory());
    gauge("bobbin.nm.capacity.vcores", "Virtual cores this node offers to containers.", node,
        v -> v.capability().vCores());
    gauge("bobbin.nm.registered", "1 while the node is registered with an RM.", node,
        v -> v.rmLink() == NodeView.RmLinkState.REGISTERED ? 1 : 0);
    gauge("bobbin.nm.healthy", "1 while the node's health script and directory checks pass.", node,
        v -> v.health().healthy() ? 1 : 0);
    counter("bobbin.nm.heartbeats", "Heartbeats the RM answered.", node, NodeView::heartbeatsTotal);
    counter("bobbin.nm.rm.call.failures", "Registrations and heartbeats that failed.", node,
        NodeView::rmCallFailuresTotal);
  }

  private void gauge(String name, String help, Tags tags, ToDoubleFunction<NodeView> value) {
    Gauge.builder(name, latest, ref -> value.applyAsDouble(ref.get())).description(help).tags(tags).register(registry);
  }

  private void counter(String name, String help, Tags tags, ToDoubleFunction<NodeView> value) {
    FunctionCounter.builder(name, latest, ref -> value.applyAsDouble(ref.get())).description(help).tags(tags)
        .register(registry);
  }
}
