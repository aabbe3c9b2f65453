package dev.bobbin.chaos;

import dev.bobbin.protocol.Resource;
import java.nio.file.Path;

/** One NodeManager process, on the host ({@code host}: 127.0.0.1 or the members' bridge); faults are never injected into NodeManagers. */
record NmAgent(int index, String host, int httpPort, Path workDir, Path log, Process process, String nodeId,
    Resource capacity) {
  String name() {
    return "nm-" + index;
  }

  String url() {
    return "http://" + host + ":" + httpPort;
  }

  NmAgent identified(String id, Resource cap) {
    return new NmAgent(index, host, httpPort, workDir, log, process, id, cap);
  }
}
