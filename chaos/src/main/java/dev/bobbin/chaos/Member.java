package dev.bobbin.chaos;

import java.nio.file.Path;

/**
 * One RM member: its address, fixed ports and directories, and its current process. The harness
 * sends traffic only to members that are {@link State#UP}.
 */
final class Member {
  enum State {
    /** Started, not yet answering. */
    STARTING,
    /** Answering its HTTP API. */
    UP,
    /** Under a fault: killed, terminated, stopped with SIGSTOP, cut off, or resumed and not yet restarted. */
    FAULTED
  }

  final int index;
  /** 127.0.0.1, or its address in its own network namespace. */
  final String host;
  final int httpPort;
  final int clusterPort;
  final Path dataDir;
  final Path log;
  private volatile Process process;
  private volatile State state = State.STARTING;

  Member(int index, String host, int httpPort, int clusterPort, Path dataDir, Path log) {
    this.index = index;
    this.host = host;
    this.httpPort = httpPort;
    this.clusterPort = clusterPort;
    this.dataDir = dataDir;
    this.log = log;
  }

  String name() {
    return "rm-" + index;
  }

  String url() {
    return "http://" + host + ":" + httpPort;
  }

  /** As Pekko names it in its logs. */
  String clusterAddress() {
    return "pekko://bobbin@" + host + ":" + clusterPort;
  }

  /** As the journal's {@code writer} column names an incarnation of it, without the {@code #uid}. */
  String writerPrefix() {
    return "bobbin@" + host + ":" + clusterPort + "#";
  }

  Process process() {
    return process;
  }

  void process(Process p) {
    this.process = p;
  }

  State state() {
    return state;
  }

  void state(State s) {
    this.state = s;
  }

  boolean serving() {
    Process p = process;
    return state == State.UP && p != null && p.isAlive();
  }
}
