package dev.bobbin.core.app;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;

/** What an application looks like from outside: the summary that replies and read models carry. */
public record AppReport(
    String id,
    String user,
    String name,
    String queue,
    AppState state,
    FinalApplicationStatus finalStatus,
    String diagnostics,
    String applicationType,
    List<String> tags,
    int priority,
    long startedTime,
    long finishedTime,
    Resource amResource,
    int maxAttempts,
    List<Attempt> attempts,
    PreemptionHistory preemptions) implements CborSerializable {

  public Attempt currentAttempt() {
    return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
  }
}
