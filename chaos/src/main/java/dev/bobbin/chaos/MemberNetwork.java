package dev.bobbin.chaos;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each RM member in a network namespace of its own, on a bridge this run creates: the member at
 * {@code 10.77.S.(10+n)}, the host at {@code 10.77.S.1} (where PostgreSQL's relay and the
 * NodeManagers listen). Names carry this JVM's pid ({@code bobbin-chaos-PID-rmN}, links
 * {@code bchPIDbr}, {@code bchPIDhN}); a run removes what a run that no longer exists left behind.
 *
 * <p>Faults without netem: isolation takes the member's link down; a cluster-only partition points
 * the members' addresses at a MAC address nobody has, both ways, so their packets vanish while
 * everything else flows; loss drops a share of what the member sends with iptables' statistic
 * match; a slow link is a token bucket ({@code tc tbf}) on both ends of the member's link.
 */
final class MemberNetwork implements AutoCloseable {
  static final String NAMESPACE_PREFIX = "bobbin-chaos-";
  static final String LINK_PREFIX = "bch";
  static final int LOSS_PERCENT = 30;
  static final String SLOW_RATE = "256kbit";
  static final String SLOW_QUEUE = "2s";
  private static final String NOWHERE_MAC = "02:00:00:00:b0:bb";
  private static final String MEMBER_LINK = "eth0";
  private static final Pattern STALE_NAMESPACE = Pattern.compile("^" + NAMESPACE_PREFIX + "(\\d+)-rm\\d+\\b.*");
  private static final Pattern STALE_LINK = Pattern.compile("^\\d+: (" + LINK_PREFIX + "(\\d+)(?:br|h\\d+))[@:].*");

  /** Undoes one network fault. */
  interface Heal {
    void heal() throws NetworkException;
  }

  private record Slot(String namespace, String hostLink, String address) {}

  final String hostAddress;
  private final String ip;
  private final String bridge;
  private final List<Slot> slots;

  private MemberNetwork(String ip, String bridge, String hostAddress, List<Slot> slots) {
    this.ip = ip;
    this.bridge = bridge;
    this.hostAddress = hostAddress;
    this.slots = slots;
  }

  /** Why member namespaces cannot be made here, or empty when they can be tried. */
  static Optional<String> unsupported() {
    String os = System.getProperty("os.name", "");
    if (!os.toLowerCase(Locale.ROOT).contains("linux")) return Optional.of("Linux, and this is " + os);
    Commands.Outcome uid = Commands.run("id", "-u");
    if (!uid.ok() || !uid.output().equals("0")) {
      return Optional.of("root (for network namespaces, links and rules), and this run is uid " + uid.output());
    }
    if (Commands.locate("ip").isEmpty()) return Optional.of("the ip command (Debian package iproute2), not found");
    return Optional.empty();
  }

  /** Removes namespaces and links of runs whose process has ended; returns what it removed. */
  static List<String> removeStale() {
    String ip = Commands.locate("ip").orElse("ip");
    List<String> removed = new ArrayList<>();
    for (String line : Commands.run(ip, "netns", "list").output().lines().toList()) {
      Matcher m = STALE_NAMESPACE.matcher(line);
      String ns = line.split("\\s+")[0];
      if (m.matches() && !alive(m.group(1)) && Commands.run(ip, "netns", "delete", ns).ok()) removed.add(ns);
    }
    for (String line : Commands.run(ip, "-o", "link", "show").output().lines().toList()) {
      Matcher m = STALE_LINK.matcher(line);
      if (m.matches() && !alive(m.group(2)) && Commands.run(ip, "link", "delete", m.group(1)).ok()) {
        removed.add(m.group(1));
      }
    }
    return removed;
  }

  /** A bridge with the host's address and one namespace per member, each with its address; torn down if it fails midway. */
  static MemberNetwork create(int members) throws NetworkException {
    String ip = Commands.locate("ip").orElseThrow(() -> new NetworkException("no ip command"));
    long pid = ProcessHandle.current().pid();
    String subnet = "10.77." + freeSubnet(ip, pid);
    String bridge = LINK_PREFIX + pid + "br";
    List<Slot> slots = new ArrayList<>();
    for (int i = 1; i <= members; i++) {
      slots.add(new Slot(NAMESPACE_PREFIX + pid + "-rm" + i, LINK_PREFIX + pid + "h" + i, subnet + "." + (10 + i)));
    }
    MemberNetwork net = new MemberNetwork(ip, bridge, subnet + ".1", List.copyOf(slots));
    try {
      Commands.must(ip, "link", "add", bridge, "type", "bridge");
      Commands.must(ip, "addr", "add", net.hostAddress + "/24", "dev", bridge);
      Commands.must(ip, "link", "set", bridge, "up");
      for (Slot s : slots) {
        Commands.must(ip, "netns", "add", s.namespace);
        Commands.must(ip, "link", "add", s.hostLink, "type", "veth", "peer", "name", MEMBER_LINK, "netns", s.namespace);
        Commands.must(ip, "link", "set", s.hostLink, "master", bridge, "up");
        Commands.must(ip, "-n", s.namespace, "addr", "add", s.address + "/24", "dev", MEMBER_LINK);
        Commands.must(ip, "-n", s.namespace, "link", "set", MEMBER_LINK, "up");
        Commands.must(ip, "-n", s.namespace, "link", "set", "lo", "up");
      }
    } catch (NetworkException e) {
      net.close();
      throw e;
    }
    return net;
  }

  /** Network faults this host cannot inject, with the reason: probed on the first member's link. */
  Map<FaultKind, String> unavailable() {
    Map<FaultKind, String> out = new EnumMap<>(FaultKind.class);
    Slot s = slots.get(0);
    Optional<String> tc = Commands.locate("tc");
    if (tc.isEmpty()) {
      out.put(FaultKind.SLOW, "no tc command (Debian package iproute2)");
    } else {
      Commands.Outcome tbf = Commands.run(tc.get(), "qdisc", "add", "dev", s.hostLink, "root", "tbf", "rate", SLOW_RATE,
          "burst", "8kb", "latency", SLOW_QUEUE);
      if (tbf.ok()) {
        Commands.run(tc.get(), "qdisc", "del", "dev", s.hostLink, "root");
      } else {
        out.put(FaultKind.SLOW, "the kernel refused a tbf qdisc: " + tbf.output());
      }
    }
    Optional<String> iptables = Commands.locate("iptables");
    if (iptables.isEmpty()) {
      out.put(FaultKind.LOSS, "no iptables command (Debian package iptables)");
    } else {
      List<String> rule = List.of("OUTPUT", "-d", "192.0.2.1/32", "-j", "DROP");
      Commands.Outcome add = Commands.run(inNamespace(s, iptables.get(), "-A", rule));
      if (add.ok()) {
        Commands.run(inNamespace(s, iptables.get(), "-D", rule));
      } else {
        out.put(FaultKind.LOSS, "iptables could not add a rule (no netfilter in this kernel?): " + add.output());
      }
    }
    return out;
  }

  /** Member {@code n}'s (1-based) address. */
  String address(int n) {
    return slots.get(n - 1).address;
  }

  /** {@code command}, run inside member {@code n}'s namespace. */
  List<String> wrap(int n, List<String> command) {
    List<String> out = new ArrayList<>(List.of(ip, "netns", "exec", slots.get(n - 1).namespace));
    out.addAll(command);
    return out;
  }

  /** Injects {@code kind} (a network fault) on member {@code n}; the returned handle undoes it. */
  Heal inject(FaultKind kind, int n) throws NetworkException {
    Slot s = slots.get(n - 1);
    return switch (kind) {
      case ISOLATE -> isolate(s);
      case PARTITION, PARTITION_PAUSE -> partition(s);
      case LOSS -> loss(s);
      case SLOW -> slow(s);
      default -> throw new IllegalArgumentException(kind + " is not a network fault");
    };
  }

  private Heal isolate(Slot s) throws NetworkException {
    Commands.must(ip, "link", "set", s.hostLink, "down");
    return () -> Commands.must(ip, "link", "set", s.hostLink, "up");
  }

  private Heal partition(Slot s) throws NetworkException {
    List<String[]> undo = new ArrayList<>();
    try {
      for (Slot other : slots) {
        if (other == s) continue;
        undo.add(unreachable(s, other.address));
        undo.add(unreachable(other, s.address));
      }
    } catch (NetworkException e) {
      undoAll(undo);
      throw e;
    }
    return () -> undoAll(undo);
  }

  /** {@code from} sends packets for {@code to} to a MAC address nobody has: they vanish, as in a real partition. */
  private String[] unreachable(Slot from, String to) throws NetworkException {
    Commands.must(ip, "-n", from.namespace, "neigh", "replace", to, "lladdr", NOWHERE_MAC, "dev", MEMBER_LINK,
        "nud", "permanent");
    return new String[] {ip, "-n", from.namespace, "neigh", "del", to, "dev", MEMBER_LINK};
  }

  private static void undoAll(List<String[]> undo) throws NetworkException {
    NetworkException first = null;
    for (String[] cmd : undo) {
      try {
        Commands.must(cmd);
      } catch (NetworkException e) {
        if (first == null) first = e;
      }
    }
    if (first != null) throw first;
  }

  private Heal loss(Slot s) throws NetworkException {
    String iptables = Commands.locate("iptables").orElseThrow(() -> new NetworkException("no iptables command"));
    List<String> rule = List.of("OUTPUT", "-o", MEMBER_LINK, "-m", "statistic", "--mode", "random",
        "--probability", String.format(Locale.ROOT, "%.2f", LOSS_PERCENT / 100.0), "-j", "DROP");
    must(inNamespace(s, iptables, "-A", rule));
    return () -> must(inNamespace(s, iptables, "-D", rule));
  }

  private Heal slow(Slot s) throws NetworkException {
    String tc = Commands.locate("tc").orElseThrow(() -> new NetworkException("no tc command"));
    String[] tbf = {"root", "tbf", "rate", SLOW_RATE, "burst", "8kb", "latency", SLOW_QUEUE};
    must(concat(List.of(tc, "qdisc", "add", "dev", s.hostLink), tbf));
    try {
      must(concat(List.of(ip, "netns", "exec", s.namespace, tc, "qdisc", "add", "dev", MEMBER_LINK), tbf));
    } catch (NetworkException e) {
      Commands.run(tc, "qdisc", "del", "dev", s.hostLink, "root");
      throw e;
    }
    return () -> undoAll(List.of(new String[] {tc, "qdisc", "del", "dev", s.hostLink, "root"},
        new String[] {ip, "netns", "exec", s.namespace, tc, "qdisc", "del", "dev", MEMBER_LINK, "root"}));
  }

  /** Removes every namespace and the bridge (the veth pairs go with their namespaces); best effort. */
  @Override
  public void close() {
    for (Slot s : slots) Commands.run(ip, "netns", "delete", s.namespace);
    for (Slot s : slots) Commands.run(ip, "link", "delete", s.hostLink);
    Commands.run(ip, "link", "delete", bridge);
  }

  private List<String> inNamespace(Slot s, String tool, String op, List<String> rule) {
    List<String> cmd = new ArrayList<>(List.of(ip, "netns", "exec", s.namespace, tool, "-w", op));
    cmd.addAll(rule);
    return cmd;
  }

  private static List<String> concat(List<String> head, String[] tail) {
    List<String> out = new ArrayList<>(head);
    out.addAll(List.of(tail));
    return out;
  }

  private static void must(List<String> cmd) throws NetworkException {
    Commands.must(cmd.toArray(String[]::new));
  }

  /** A 10.77.S.0/24 with no address or route on this host; where the search starts depends on the pid, so two runs starting together differ. */
  private static int freeSubnet(String ip, long pid) throws NetworkException {
    String used = Commands.run(ip, "-o", "-4", "addr", "show").output() + "\n"
        + Commands.run(ip, "-4", "route", "show").output();
    for (int i = 0; i < 254; i++) {
      int s = (int) ((pid + i) % 254) + 1;
      if (!used.contains("10.77." + s + ".")) return s;
    }
    throw new NetworkException("no free 10.77.S.0/24 subnet on this host");
  }

  private static boolean alive(String pid) {
    try {
      return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
