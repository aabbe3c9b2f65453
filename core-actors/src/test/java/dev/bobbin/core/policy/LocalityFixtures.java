package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * Four nodes of 4 GB in two racks, {@code a} and {@code b} in /r1, {@code c} and {@code d} in /r2,
 * and the request shapes AMs send, all for 1 GB containers at priority 1.
 */
public final class LocalityFixtures {
  public static final Resource GB = Resource.of(1024, 1);
  public static final String R1 = "/r1";
  public static final String R2 = "/r2";

  private LocalityFixtures() {}

  public static NodeView node(String host, String rack) {
    return new NodeView(host + ":1", host, rack, Resource.of(4096, 4), Resource.NONE);
  }

  /** a, b in /r1; c, d in /r2. */
  public static List<NodeView> fourNodes() {
    return List.of(node("a", R1), node("b", R1), node("c", R2), node("d", R2));
  }

  public static Ask at(String name, int count, boolean relax) {
    return new Ask(1, name, GB, count, relax, -1, false);
  }

  /** Bobbin's AM library, a container strictly on {@code host}: the host's ask and a strict {@code *}. */
  public static List<Ask> strictHostAsBobbinSendsIt(String host, int count) {
    return List.of(at(host, count, true), at(Ask.ANY, count, false));
  }

  /** Hadoop's AMRMClient, a container strictly on {@code host}: the host, its rack strict, {@code *} strict. */
  public static List<Ask> strictHostAsHadoopSendsIt(String host, String rack, int count) {
    return List.of(at(host, count, true), at(rack, count, false), at(Ask.ANY, count, false));
  }

  /** A container strictly in {@code rack}: the rack's ask and a strict {@code *}. */
  public static List<Ask> strictRack(String rack, int count) {
    return List.of(at(rack, count, true), at(Ask.ANY, count, false));
  }

  /** A preference for {@code host}, relaxed at every level, as AMRMClient sends it. */
  public static List<Ask> preferHost(String host, String rack, int count) {
    return List.of(at(host, count, true), at(rack, count, true), at(Ask.ANY, count, true));
  }
}
