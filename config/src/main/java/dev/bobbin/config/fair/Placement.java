package dev.bobbin.config.fair;

import java.util.List;
import java.util.Objects;

/** Where placement put an application, or why it refused it. */
public sealed interface Placement {

  /**
   * @param queue the full path of the leaf queue
   * @param queuesToCreate queues that do not exist yet, top down: missing parents first, then the
   *     leaf itself if it is new; empty when the queue exists
   * @param rule which rule decided, e.g. "rule 2 (user)"
   */
  record Placed(String queue, List<String> queuesToCreate, String rule) implements Placement {
    public Placed {
      Objects.requireNonNull(queue, "queue");
      queuesToCreate = List.copyOf(queuesToCreate);
    }
  }

  record Rejected(String reason) implements Placement {
    public Rejected {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
