package dev.bobbin.http;

import static dev.bobbin.http.JsonResponses.ok;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.ClusterSharding;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.pattern.Patterns;
import scala.concurrent.duration.FiniteDuration;

/**
 * {@code GET /cluster/sharding}: for every shard region (entity type), each member's shards and
 * the entities awake in them, as the shard coordinator gathers them from the regions; and the
 * member the cluster singletons (the scheduler among them) run on: the oldest member that is up,
 * with the singletons' role when one is configured. Pekko Management's {@code /cluster/shards/{type}}
 * gives one member's shards only.
 */
final class ShardingRoute extends AllDirectives {
  /** How long the coordinator waits for each region, and this route for the coordinator. */
  private static final Duration WAIT = Duration.ofSeconds(3);
  private final org.apache.pekko.actor.ActorSystem classic;
  private final String singletonRole;

  ShardingRoute(ActorSystem<?> system) {
    this.classic = Adapter.toClassic(system);
    this.singletonRole = classic.settings().config().getString("pekko.cluster.singleton.role");
  }

  Route routes() {
    return path(PathMatchers.segment("cluster").slash("sharding"), () -> get(() -> completeWithFuture(sharding())));
  }

  private CompletionStage<HttpResponse> sharding() {
    ClusterSharding sharding = ClusterSharding.get(classic);
    FiniteDuration wait = FiniteDuration.create(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    List<CompletableFuture<Map<String, Object>>> regions = sharding.getShardTypeNames().stream().sorted()
        .map(type -> Patterns.ask(sharding.shardRegion(type), new ShardRegion.GetClusterShardingStats(wait),
                WAIT.plusSeconds(1)).toCompletableFuture()
            .handle((answer, e) -> region(type, answer instanceof ShardRegion.ClusterShardingStats s ? s : null)))
        .toList();
    return CompletableFuture.allOf(regions.toArray(CompletableFuture[]::new)).thenApply(done -> {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("regions", regions.stream().map(CompletableFuture::join).toList());
      body.put("singletons", singletons());
      return ok(body);
    });
  }

  /** @param stats null when the coordinator did not answer in time */
  private static Map<String, Object> region(String type, ShardRegion.ClusterShardingStats stats) {
    List<Map<String, Object>> members = new ArrayList<>();
    if (stats != null) {
      stats.getRegions().entrySet().stream().sorted(Map.Entry.comparingByKey(Member.addressOrdering())).forEach(e -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("member", e.getKey().toString());
        m.put("shards", e.getValue().getStats().size());
        m.put("entities", e.getValue().getStats().values().stream().mapToInt(v -> ((Number) v).intValue()).sum());
        m.put("failedShards", e.getValue().getFailed().size());
        members.add(m);
      });
    }
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("typeName", type);
    r.put("answered", stats != null);
    r.put("members", members);
    return r;
  }

  private Map<String, Object> singletons() {
    Address oldest = null;
    Member best = null;
    for (Member m : Cluster.get(classic).state().getMembers()) {
      if (!m.status().equals(MemberStatus.up())) continue;
      if (!singletonRole.isEmpty() && !m.hasRole(singletonRole)) continue;
      if (best == null || m.isOlderThan(best)) best = m;
    }
    if (best != null) oldest = best.address();
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("member", oldest == null ? null : oldest.toString());
    s.put("role", singletonRole);
    return s;
  }
}
