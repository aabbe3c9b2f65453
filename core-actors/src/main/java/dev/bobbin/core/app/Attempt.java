package dev.bobbin.core.app;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ExitStatus;

/** One application attempt as the journal knows it. */
public record Attempt(
    String attemptId,
    int number,
    AttemptState state,
    long startTime,
    long finishTime,
    String amContainerId,
    String amNodeId,
    String amNodeHttpAddress,
    String amHost,
    int amRpcPort,
    String trackingUrl,
    int exitStatus,
    String diagnostics) implements CborSerializable {

  static Attempt scheduled(String attemptId, int number, long time) {
    return new Attempt(attemptId, number, AttemptState.SCHEDULED, time, 0, "", "", "", "", -1, "",
        ExitStatus.INVALID, "");
  }

  /** An unmanaged AM's attempt, waiting for the AM its client runs to register. */
  static Attempt launched(String attemptId, int number, long time) {
    return new Attempt(attemptId, number, AttemptState.LAUNCHED, time, 0, "", "", "", "", -1, "",
        ExitStatus.INVALID, "");
  }

  Attempt allocated(String containerId, String nodeId, String nodeHttpAddress) {
    return new Attempt(attemptId, number, AttemptState.ALLOCATED, startTime, finishTime, containerId,
        nodeId, nodeHttpAddress, amHost, amRpcPort, trackingUrl, exitStatus, diagnostics);
  }

  Attempt registered(String host, int rpcPort, String url) {
    return new Attempt(attemptId, number, AttemptState.RUNNING, startTime, finishTime, amContainerId,
        amNodeId, amNodeHttpAddress, host, rpcPort, url, exitStatus, diagnostics);
  }

  Attempt ended(AttemptState end, long time, int exit, String diag, String url) {
    return new Attempt(attemptId, number, end, startTime, time, amContainerId, amNodeId,
        amNodeHttpAddress, amHost, amRpcPort, url == null || url.isEmpty() ? trackingUrl : url,
        exit, diag);
  }
}
