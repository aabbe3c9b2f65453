package dev.bobbin.core.app;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.util.List;

/** A validated submission context: what the client asked for, with defaults applied. */
public record Submission(
    String appId,
    String name,
    String user,
    String queue,
    int priority,
    String applicationType,
    List<String> tags,
    Resource amResource,
    ContainerLaunchContext amLaunch,
    int maxAttempts) implements CborSerializable {
  public Submission {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  public Submission withQueue(String placed) {
    return new Submission(appId, name, user, placed, priority, applicationType, tags, amResource, amLaunch, maxAttempts);
  }
}
