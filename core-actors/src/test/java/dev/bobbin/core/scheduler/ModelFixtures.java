package dev.bobbin.core.scheduler;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.protocol.Resource;

/** Nodes, attempts and 1 GB containers put into a {@link SchedulerModel} by hand, for tests of its bookkeeping. */
final class ModelFixtures {
  static final Resource GB = Resource.of(1024, 1);
  static final String NODE = "node-0";
  static final String APP = "application_1795502072393_0001";
  static final String ATTEMPT = "appattempt_1795502072393_0001_000001";

  private ModelFixtures() {}

  /** A node whose host is its id with {@code host} for {@code node}: node-1 runs on host-1. */
  static SchedNode addNode(SchedulerModel model, String nodeId, Resource capacity) {
    String host = nodeId.replace("node", "host");
    SchedNode node = new SchedNode(new NodeEntity.Registration(nodeId, host, host + ":8042", "/default-rack", capacity), 0);
    model.putNode(node);
    return node;
  }

  /** An application in queue {@code a} with its first attempt, asking for its AM as a new attempt does. */
  static SchedApp addAttempt(SchedulerModel model, String appId, String attemptId, String user) {
    SchedApp app = model.follow(appId, QueuePath.of("a"), user, 0, 0, GB, null);
    model.startAttempt(app, attemptId);
    return app;
  }

  /** A 1 GB container of the attempt placed on {@link #NODE}, then set to {@code phase}. */
  static SchedContainer place(SchedulerModel model, String appId, String attemptId, SchedContainer.Phase phase,
      long now) {
    return place(model, appId, attemptId, NODE, phase, now);
  }

  /** A 1 GB container of the attempt placed on {@code nodeId}, then set to {@code phase}. */
  static SchedContainer place(SchedulerModel model, String appId, String attemptId, String nodeId,
      SchedContainer.Phase phase, long now) {
    Ask ask = new Ask(1, Ask.ANY, GB, 1, true, 0, false);
    SchedContainer c = model.place(new Assignment(appId, attemptId, nodeId, ask, "test"), 1, now);
    model.setPhase(c, phase);
    return c;
  }
}
