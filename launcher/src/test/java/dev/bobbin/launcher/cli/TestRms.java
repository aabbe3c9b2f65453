package dev.bobbin.launcher.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Fake RMs, and addresses where no RM listens. */
final class TestRms {
  private TestRms() {}

  static FakeRm start() {
    try {
      return new FakeRm();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A URL on a port that was free a moment ago and is now closed. */
  static String closedPortUrl() {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
