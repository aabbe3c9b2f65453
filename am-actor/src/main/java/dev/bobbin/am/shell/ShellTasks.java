package dev.bobbin.am.shell;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The distributed shell's N tasks: which wait for a container, which run in which container, and
 * how each ended. A task whose container was lost before it could finish (ABORTED) or preempted is
 * put back to wait, at most {@code maxRetriesPerTask} times. Immutable.
 */
final class ShellTasks {
  enum Verdict {
    /** Start the shell in this container for task {@code shellId}. */
    LAUNCH,
    /** No task waits for this container: release it. */
    EXCESS,
    /** Not a container of a task (released, or already accounted for). */
    IGNORED,
    SUCCEEDED,
    FAILED,
    /** The task waits again: ask for one more container. */
    RETRY
  }

  record Step(ShellTasks tasks, Verdict verdict, int shellId) {}

  record Failure(String containerId, String what) {
    String describe() {
      return containerId + " " + what;
    }
  }

  private final int total;
  private final int maxRetriesPerTask;
  private final List<Integer> waiting;
  private final Map<String, Integer> running;
  private final Map<Integer, Integer> retries;
  private final int succeeded;
  private final List<Failure> failures;

  private ShellTasks(
      int total, int maxRetriesPerTask, List<Integer> waiting, Map<String, Integer> running,
      Map<Integer, Integer> retries, int succeeded, List<Failure> failures) {
    this.total = total;
    this.maxRetriesPerTask = maxRetriesPerTask;
    this.waiting = waiting;
    this.running = running;
    this.retries = retries;
    this.succeeded = succeeded;
    this.failures = failures;
  }

  /** Tasks numbered 1..total, all waiting for a container. */
  static ShellTasks of(int total, int maxRetriesPerTask) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 1; i <= total; i++) ids.add(i);
    return new ShellTasks(total, maxRetriesPerTask, List.copyOf(ids), Map.of(), Map.of(), 0, List.of());
  }

  int waitingCount() {
    return waiting.size();
  }

  int total() {
    return total;
  }

  List<Failure> failures() {
    return failures;
  }

  boolean isDone() {
    return succeeded + failures.size() == total;
  }

  float progress() {
    return (succeeded + failures.size()) / (float) total;
  }

  /** Gives the container to the first waiting task, or marks it excess. */
  Step assign(String containerId) {
    if (waiting.isEmpty() || running.containsKey(containerId)) return new Step(this, Verdict.EXCESS, 0);
    int shellId = waiting.get(0);
    Map<String, Integer> nextRunning = new LinkedHashMap<>(running);
    nextRunning.put(containerId, shellId);
    return new Step(
        with(waiting.subList(1, waiting.size()), nextRunning, retries, succeeded, failures),
        Verdict.LAUNCH, shellId);
  }

  /**
   * Gives the container to task {@code shellId} if it waits, or marks it excess: for an AM whose
   * containers are asked for, and handed over from earlier attempts, in their tasks' names.
   */
  Step assign(String containerId, int shellId) {
    int at = waiting.indexOf(shellId);
    if (at < 0 || running.containsKey(containerId)) return new Step(this, Verdict.EXCESS, 0);
    List<Integer> nextWaiting = new ArrayList<>(waiting);
    nextWaiting.remove(at);
    Map<String, Integer> nextRunning = new LinkedHashMap<>(running);
    nextRunning.put(containerId, shellId);
    return new Step(with(nextWaiting, nextRunning, retries, succeeded, failures), Verdict.LAUNCH, shellId);
  }

  /** The tasks waiting for a container, in the order they get one. */
  List<Integer> waiting() {
    return waiting;
  }

  Step completed(ContainerStatus status) {
    Integer shellId = running.get(status.containerId());
    if (shellId == null) return new Step(this, Verdict.IGNORED, 0);
    int exit = status.exitStatus();
    if (exit == ExitStatus.SUCCESS) {
      return new Step(
          with(waiting, withoutRunning(status.containerId()), retries, succeeded + 1, failures),
          Verdict.SUCCEEDED, shellId);
    }
    boolean platformCaused = exit == ExitStatus.ABORTED || exit == ExitStatus.PREEMPTED;
    return endOrRetry(status.containerId(), shellId, platformCaused, "exited " + exit);
  }

  /** The NM would not start the container: retry like a lost container. */
  Step startFailed(String containerId, String reason) {
    Integer shellId = running.get(containerId);
    if (shellId == null) return new Step(this, Verdict.IGNORED, 0);
    return endOrRetry(containerId, shellId, true, "failed to start: " + reason);
  }

  /** "2 of 3 containers failed: container_x exited 1; ..." or a success summary. */
  String diagnostics() {
    if (failures.isEmpty()) return "All " + total + " containers exited 0";
    return failures.size() + " of " + total + " containers failed: "
        + failures.stream().map(Failure::describe).collect(Collectors.joining("; "));
  }

  private Step endOrRetry(String containerId, int shellId, boolean retryable, String what) {
    Map<String, Integer> nextRunning = withoutRunning(containerId);
    int used = retries.getOrDefault(shellId, 0);
    if (retryable && used < maxRetriesPerTask) {
      List<Integer> nextWaiting = new ArrayList<>(waiting);
      nextWaiting.add(shellId);
      Map<Integer, Integer> nextRetries = new LinkedHashMap<>(retries);
      nextRetries.put(shellId, used + 1);
      return new Step(
          with(List.copyOf(nextWaiting), nextRunning, nextRetries, succeeded, failures), Verdict.RETRY, shellId);
    }
    List<Failure> nextFailures = new ArrayList<>(failures);
    nextFailures.add(new Failure(containerId, what));
    return new Step(
        with(waiting, nextRunning, retries, succeeded, List.copyOf(nextFailures)), Verdict.FAILED, shellId);
  }

  private Map<String, Integer> withoutRunning(String containerId) {
    Map<String, Integer> next = new LinkedHashMap<>(running);
    next.remove(containerId);
    return next;
  }

  private ShellTasks with(
      List<Integer> waiting, Map<String, Integer> running, Map<Integer, Integer> retries, int succeeded,
      List<Failure> failures) {
    return new ShellTasks(
        total, maxRetriesPerTask, List.copyOf(waiting), Collections.unmodifiableMap(running),
        Collections.unmodifiableMap(retries), succeeded, failures);
  }
}
