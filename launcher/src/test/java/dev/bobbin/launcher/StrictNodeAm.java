package dev.bobbin.launcher;

import dev.bobbin.am.AmClientSettings;
import dev.bobbin.am.AmListener;
import dev.bobbin.am.AmSession;
import dev.bobbin.am.ContainerRequest;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.Container;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * An AM for {@link StrictLocalityIT}, run in its container by a NodeManager: given the cluster's node
 * ids, it asks for one 1 GB container strictly on a node other than its own (relaxLocality false),
 * takes what it is given until 3 s after the first container, gives it all back, and finishes
 * SUCCEEDED if that was one container on the node it named, FAILED otherwise; the diagnostics say
 * where each container landed.
 */
public final class StrictNodeAm {
  private StrictNodeAm() {}

  public static void main(String[] nodeIds) throws Exception {
    String own = System.getenv(ContainerEnv.NM_HOST) + ":" + System.getenv(ContainerEnv.NM_PORT);
    String target = Arrays.stream(nodeIds).filter(id -> !id.equals(own)).findFirst().orElseThrow();
    List<Container> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> first = new CompletableFuture<>();
    AmListener listener = new AmListener() {
      @Override
      public void onContainersAllocated(List<Container> containers) {
        got.addAll(containers);
        first.complete(null);
      }

      @Override
      public void onContainersCompleted(List<ContainerStatus> statuses) {}
    };
    try (AmSession am = AmSession.start(AmClientSettings.fromEnvironment(System.getenv()), listener)) {
      am.registered().toCompletableFuture().join();
      am.addContainerRequest(new ContainerRequest(Resource.of(1024, 1), List.of(target), List.of(), 1, false, -1));
      first.get(60, TimeUnit.SECONDS);
      // Whatever else the scheduler would hand out for the same request arrives within a few heartbeats.
      CompletableFuture.runAsync(() -> {}, CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS)).join();
      got.forEach(c -> am.releaseAssignedContainer(c.id()));
      List<String> nodes = got.stream().map(Container::nodeId).toList();
      boolean once = nodes.equals(List.of(target));
      am.unregister(once ? FinalApplicationStatus.SUCCEEDED : FinalApplicationStatus.FAILED,
          "asked 1 container strictly on " + target + ", got " + nodes).toCompletableFuture().join();
    }
    System.exit(0);
  }
}
