package dev.bobbin.launcher;

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

/**
 * Free ports on 127.0.0.1 for RM members and NodeManagers started as processes on one host (the
 * chaos suite, the cluster tests), below the kernel's ephemeral range where it can: a member
 * restarts on its old ports, and an outgoing connection must not have taken one of them in the
 * meantime.
 */
public final class Ports {
  private static final int LOWEST = 10_000;
  private static final int PROBES = 2_000;

  private Ports() {}

  public static List<Integer> pick(int count, Random random) {
    int ephemeralLow = ephemeralLow();
    Set<Integer> chosen = new LinkedHashSet<>();
    for (int probe = 0; probe < PROBES && chosen.size() < count && ephemeralLow - LOWEST > 1000; probe++) {
      int port = LOWEST + random.nextInt(ephemeralLow - LOWEST);
      if (!chosen.contains(port) && bindable(port)) chosen.add(port);
    }
    while (chosen.size() < count) chosen.add(anyFree());
    return new ArrayList<>(chosen);
  }

  private static int ephemeralLow() {
    // Files.readString trusts the size procfs reports, and gets a truncated line.
    try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      String range = r.readLine();
      return Integer.parseInt(range.strip().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32768;
    }
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return s.isBound();
    } catch (IOException e) {
      return false;
    }
  }

  private static int anyFree() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on 127.0.0.1: " + e.getMessage(), e);
    }
  }
}
