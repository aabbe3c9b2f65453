package dev.bobbin.chaos;

import dev.bobbin.protocol.Resource;
import java.nio.file.Path;

/** One NodeManager process; faults are never injected into NodeManagers. */
record NmAgent(int index, int httpPort, Path workDir, Path log, Process process, String nodeId, Resource capacity) {
  String name() {
    return "nm-" + index;
  }

  String url() {
    return "http://127.0.0.1:" + httpPort;
  }

  NmAgent identified(String id, Resource cap) {
    return new NmAgent(index, httpPort, workDir, log, process, id, cap);
  }
}
