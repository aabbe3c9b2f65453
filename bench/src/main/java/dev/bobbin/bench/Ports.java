package dev.bobbin.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on 127.0.0.1. */
final class Ports {
  private Ports() {}

  static int free() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on 127.0.0.1: " + e.getMessage(), e);
    }
  }
}
