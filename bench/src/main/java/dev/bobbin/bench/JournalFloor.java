package dev.bobbin.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.am.CommonPool;
import dev.bobbin.persistence.JournalConfig;
import dev.bobbin.persistence.JournalSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What the design's journal work costs before the RM does anything else: a one-member cluster
 * with the RM's configuration and embedded H2 journal, and {@link FloorEntity}s under cluster
 * sharding, written to as fast as they answer with a fixed number of writes in flight. Three
 * phases, each warmed up and then measured on this JVM's own CPU from /proc:
 * <ul>
 *   <li>{@code new}: an entity started for each write, set up as a Container entity (its recovery
 *       reads the journal and finds nothing), and one event;
 *   <li>{@code again}: one more event to entities started by {@code new}, as a container's later
 *       writes or a queue's;
 *   <li>{@code application}: an entity started for each write, set up as an Application entity
 *       (its recovery asks the snapshot store too), and two tagged events in one write, as a
 *       submission.
 * </ul>
 * Prints one line per phase: {@code journal-floor phase=P writes=N seconds=S cpu=NS jit=NS errors=E}.
 */
@Command(name = "journal-floor", description = "The journal scenario's floor: sharded minimal entities on the embedded journal.")
public final class JournalFloor implements Callable<Integer> {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  /** Entities {@code again} cycles over: recent containers, as a running cluster writes to. */
  private static final int AGAIN_WINDOW = 10_000;

  @Option(names = "--data-dir", paramLabel = "DIR", required = true, description = "the journal's directory")
  Path dataDir;

  @Option(names = "--warm-up", paramLabel = "SECONDS", required = true, description = "unmeasured time per phase")
  long warmSeconds;

  @Option(names = "--measure", paramLabel = "SECONDS", required = true, description = "measured time per phase")
  long measureSeconds;

  @Option(names = "--in-flight", paramLabel = "N", required = true, description = "writes kept in flight")
  int inFlight;

  private final long pid = ProcessHandle.current().pid();
  private ClusterSharding sharding;

  public static void main(String[] args) {
    CommonPool.ensureParallel();
    System.exit(new CommandLine(new JournalFloor()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Config withRm = ConfigFactory.parseMap(Map.of("pekko.remote.artery.canonical.port", 0,
            "pekko.cluster.seed-nodes", List.of()))
        .withFallback(ConfigFactory.parseResources("bobbin-rm.conf"))
        .withFallback(ConfigFactory.defaultReference()).resolve();
    Config full = JournalConfig.overlay(withRm, dataDir).withFallback(withRm).resolve();
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "bobbin", full);
    try {
      Cluster cluster = Cluster.get(system);
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!cluster.selfMember().status().equals(MemberStatus.up())) {
        if (System.nanoTime() > deadline) throw new IllegalStateException("the member did not come up");
        Thread.sleep(20);
      }
      JournalSchema.ensure(system).toCompletableFuture().get(60, TimeUnit.SECONDS);
      sharding = ClusterSharding.get(system);
      for (EntityTypeKey<FloorEntity.Write> kind : List.of(FloorEntity.CONTAINER, FloorEntity.APPLICATION)) {
        sharding.init(Entity.of(kind, ctx -> FloorEntity.create(kind, ctx.getEntityId())));
      }
      run();
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    return 0;
  }

  private void run() throws InterruptedException {
    long started = phase("new", i -> write(FloorEntity.CONTAINER, "c-" + i, 1));
    long window = Math.min(started, AGAIN_WINDOW);
    phase("again", i -> write(FloorEntity.CONTAINER, "c-" + (started - window + i % window), 1));
    phase("application", i -> write(FloorEntity.APPLICATION, "a-" + i, 2));
  }

  private CompletionStage<Done> write(EntityTypeKey<FloorEntity.Write> kind, String id, int events) {
    return sharding.entityRefFor(kind, id).ask(r -> new FloorEntity.Write(events, r), TIMEOUT);
  }

  /** Keeps {@link #inFlight} writes going through warm-up and measurement; returns the writes sent. */
  private long phase(String name, LongFunction<CompletionStage<Done>> write) throws InterruptedException {
    AtomicLong next = new AtomicLong();
    AtomicLong measured = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    long from = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmSeconds);
    long to = from + TimeUnit.SECONDS.toNanos(measureSeconds);
    CountDownLatch stopped = new CountDownLatch(inFlight);
    Runnable[] send = new Runnable[1];
    send[0] = () -> write.apply(next.getAndIncrement()).whenComplete((done, error) -> {
      long now = System.nanoTime();
      if (error != null) errors.incrementAndGet();
      else if (now >= from && now < to) measured.incrementAndGet();
      if (now < to) send[0].run();
      else stopped.countDown();
    });
    for (int i = 0; i < inFlight; i++) send[0].run();
    TimeUnit.NANOSECONDS.sleep(from - System.nanoTime());
    long cpu0 = Machine.processCpuNanos(pid);
    long jit0 = Machine.jitCpuNanos(pid);
    long t0 = System.nanoTime();
    TimeUnit.NANOSECONDS.sleep(to - t0);
    long cpu = Machine.processCpuNanos(pid) - cpu0;
    long jit = Machine.jitCpuNanos(pid) - jit0;
    double seconds = (System.nanoTime() - t0) / 1e9;
    stopped.await(TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
    System.out.println(String.format(Locale.ROOT, "journal-floor phase=%s writes=%d seconds=%.3f cpu=%d jit=%d errors=%d",
        name, measured.get(), seconds, cpu, jit, errors.get()));
    return next.get();
  }
}
