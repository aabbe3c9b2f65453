package dev.bobbin.node.http;

import dev.bobbin.node.NodeView;

/** The node's metrics in the Prometheus text exposition format. */
final class PrometheusMetrics {
  private PrometheusMetrics() {}

  static String render(NodeView v) {
    StringBuilder s = new StringBuilder();
    String node = "{node=\"" + v.identity().nodeId() + "\"}";
    gauge(s, "bobbin_nm_containers_running", "Containers running on this node.", node, v.runningContainers());
    counter(s, "bobbin_nm_containers_launched_total", "Container processes started.", node, v.launchedTotal());
    counter(s, "bobbin_nm_containers_completed_total", "Containers that finished, however they ended.", node,
        v.completedTotal());
    gauge(s, "bobbin_nm_allocated_memory_mb", "Memory of the live containers, in MB.", node, v.allocated().memory());
    gauge(s, "bobbin_nm_allocated_vcores", "Virtual cores of the live containers.", node, v.allocated().vCores());
    gauge(s, "bobbin_nm_capacity_memory_mb", "Memory this node offers to containers, in MB.", node,
        v.capability().memory());
    gauge(s, "bobbin_nm_capacity_vcores", "Virtual cores this node offers to containers.", node, v.capability().vCores());
    gauge(s, "bobbin_nm_registered", "1 while the node is registered with an RM.", node,
        v.rmLink() == NodeView.RmLinkState.REGISTERED ? 1 : 0);
    counter(s, "bobbin_nm_heartbeats_total", "Heartbeats the RM answered.", node, v.heartbeatsTotal());
    counter(s, "bobbin_nm_rm_call_failures_total", "Registrations and heartbeats that failed.", node,
        v.rmCallFailuresTotal());
    return s.toString();
  }

  private static void gauge(StringBuilder s, String name, String help, String labels, long value) {
    metric(s, name, "gauge", help, labels, value);
  }

  private static void counter(StringBuilder s, String name, String help, String labels, long value) {
    metric(s, name, "counter", help, labels, value);
  }

  private static void metric(StringBuilder s, String name, String type, String help, String labels, long value) {
    s.append("# HELP ").append(name).append(' ').append(help).append('\n');
    s.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    s.append(name).append(labels).append(' ').append(value).append('\n');
  }
}
