package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.HttpTls;
import dev.bobbin.protocol.testing.TestCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RM members' Artery links over mutual TLS: members with certificates of the cluster's authority form a cluster. */
class ClusterTlsTest {
  @Test
  void twoMembersWithTheClustersCertificatesJoinOverTls(@TempDir Path dir) {
    TestCertificates certs = TestCertificates.create(dir);
    HttpTls tls = HttpTls.from(ConfigFactory.parseMap(Map.of(
        "bobbin.http.tls.key-store", certs.serverP12().toString(),
        "bobbin.http.tls.key-store-password", certs.password(),
        "bobbin.http.tls.trust-store", certs.caPem().toString(),
        "bobbin.http.tls.cluster", true)).withFallback(ConfigFactory.defaultReference()));
    ActorSystem<Void> first = ClusterTls.createSystem(Behaviors.empty(), "bobbin", memberConfig(), tls);
    ActorSystem<Void> second = ClusterTls.createSystem(Behaviors.empty(), "bobbin", memberConfig(), tls);
    try {
      assertThat(first.settings().config().getString("pekko.remote.artery.transport")).isEqualTo("tls-tcp");
      Cluster.get(first).manager().tell(Join.create(Cluster.get(first).selfMember().address()));
      Cluster.get(second).manager().tell(Join.create(Cluster.get(first).selfMember().address()));

      TestProbe<Object> probe = TestProbe.create(first);
      probe.awaitAssert(Duration.ofSeconds(30), () -> {
        assertThat(Cluster.get(second).state().getMembers()).hasSize(2)
            .allMatch(m -> m.status() == MemberStatus.up());
        return null;
      });
    } finally {
      // Each leaves the cluster first (coordinated shutdown), which on a busy machine takes over the
      // default 10 s; after the leave, the TLS transport's termination has outlasted even a minute on
      // a loaded machine. How fast members stop is not what this test checks, so a slow stop is
      // left to finish in the background rather than failing the join it verified.
      ActorTestKit.shutdown(second, Duration.ofSeconds(60), false);
      ActorTestKit.shutdown(first, Duration.ofSeconds(60), false);
    }
  }

  private static Config memberConfig() {
    return ConfigFactory.parseString("""
        pekko.actor.provider = cluster
        pekko.remote.artery.canonical { hostname = "127.0.0.1", port = 0 }
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.coordinated-shutdown.exit-jvm = off
        """).withFallback(ConfigFactory.load());
  }
}
