package dev.bobbin.launcher.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** Ports for the members of the cluster tests. */
final class Ports {
  private Ports() {}

  /**
   * Free ports on 127.0.0.1, below the kernel's ephemeral range where possible: rm-1 restarts on its
   * old ports, and an outgoing connection must not take one of them meanwhile.
   */
  static List<Integer> free(int count) throws IOException {
    int low = 32768;
    try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      low = Integer.parseInt(r.readLine().strip().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      // keep the usual default
    }
    Random random = new Random();
    Set<Integer> chosen = new LinkedHashSet<>();
    for (int probe = 0; probe < 1000 && chosen.size() < count && low > 11_000; probe++) {
      int port = 10_000 + random.nextInt(low - 10_000);
      if (bindable(port)) chosen.add(port);
    }
    while (chosen.size() < count) {
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        chosen.add(s.getLocalPort());
      }
    }
    return new ArrayList<>(chosen);
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
