package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SubmitterTest {
  @Test
  void theLongRunningShareIsSpreadEvenlyFromTheFirstApplicationOn() {
    assertThat(IntStream.range(0, 12).filter(n -> Submitter.isService(n, 0.25)).boxed().toList())
        .containsExactly(0, 4, 8);
    assertThat(IntStream.range(0, 1000).filter(n -> Submitter.isService(n, 0.1)).count()).isEqualTo(100);
    assertThat(IntStream.range(0, 1000).filter(n -> Submitter.isService(n, 1.0 / 3)).count()).isEqualTo(334);
    assertThat(IntStream.range(0, 50).filter(n -> Submitter.isService(n, 1)).count()).isEqualTo(50);
    assertThat(IntStream.range(0, 50).filter(n -> Submitter.isService(n, 0)).count()).isZero();
  }

  @Test
  void longRunningTasksLastAThirdOfTheRunFromTenSecondsToAMinute() {
    assertThat(Submitter.serviceShell(Duration.ofSeconds(60))).isEqualTo("sleep 20; echo ok");
    assertThat(Submitter.serviceShell(Duration.ofSeconds(40))).isEqualTo("sleep 13; echo ok");
    assertThat(Submitter.serviceShell(Duration.ofSeconds(20))).isEqualTo("sleep 10; echo ok");
    assertThat(Submitter.serviceShell(Duration.ofMinutes(30))).isEqualTo("sleep 60; echo ok");
  }

  @Test
  void aLongRunningServiceKeepsItsContainersWithAttemptsToSpare() {
    ChaosOptions options = ChaosOptions.parse(List.of("--duration", "60s"));
    Submitter submitter = new Submitter(null, null, new AppTracker(), new Random(1), "/opt/bobbin/lib/*", options);

    Map<String, Object> service = submitter.body("application_1_0001", true);
    assertThat(service).containsEntry("keep-containers-across-application-attempts", true)
        .containsEntry("max-app-attempts", Submitter.SERVICE_MAX_ATTEMPTS);
    assertThat(command(service)).contains("--keep-containers", "sleep 20; echo ok", "--containers 2");

    Map<String, Object> ordinary = submitter.body("application_1_0002", false);
    assertThat(ordinary).doesNotContainKey("keep-containers-across-application-attempts")
        .containsEntry("max-app-attempts", Submitter.MAX_ATTEMPTS);
    assertThat(command(ordinary)).contains("sleep 2; echo ok").doesNotContain("--keep-containers");
  }

  @SuppressWarnings("unchecked")
  private static String command(Map<String, Object> body) {
    var spec = (Map<String, Map<String, List<String>>>) body.get("am-container-spec");
    return String.join(" ", spec.get("commands").get("command"));
  }
}
