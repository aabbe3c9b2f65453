package dev.bobbin.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.PreemptionHistory;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The retry window and timeouts of a submission, and YARN's timeout shapes. */
class AppTimeoutJsonTest {
  private static final String BASE = """
      {"application-id":"application_1_0001","am-container-spec":{"commands":{"command":"x"}}""";

  private static Submission parse(String extra) {
    var tree = Bodies.tree(BASE + extra + "}");
    return SubmissionJson.withLongRunningFields(tree, SubmissionJson.parse(tree, "alice"));
  }

  @Test
  void aSubmissionCarriesItsValidityIntervalAndLifetime() {
    Submission s = parse("""
        ,"attempt-failures-validity-interval":1000,"application-timeouts":{"entry":[{"key":"LIFETIME","value":10}]}""");
    assertThat(s.attemptFailuresValidityInterval()).isEqualTo(1000);
    assertThat(s.lifetime()).isEqualTo(10_000);
    Submission single = parse(",\"application-timeouts\":{\"entry\":{\"key\":\"lifetime\",\"value\":\"5\"}}");
    assertThat(single.lifetime()).isEqualTo(5_000);
  }

  @Test
  void withoutThemEveryFailureCountsAndThereIsNoLifetime() {
    Submission s = parse("");
    assertThat(s.attemptFailuresValidityInterval()).isEqualTo(-1);
    assertThat(s.lifetime()).isEqualTo(-1);
  }

  @Test
  void badTimeoutsAndIntervalsAreRefusedNamingTheProblem() {
    assertThatThrownBy(() -> parse(",\"application-timeouts\":{\"entry\":[{\"key\":\"IDLE\",\"value\":10}]}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("IDLE").hasMessageContaining("LIFETIME");
    assertThatThrownBy(() -> parse(",\"application-timeouts\":{\"entry\":[{\"key\":\"LIFETIME\",\"value\":-5}]}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("value=-5");
    assertThatThrownBy(() -> parse(",\"application-timeouts\":{\"entry\":[{\"key\":\"LIFETIME\",\"value\":0}]}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("value=0");
    assertThatThrownBy(() -> parse(",\"application-timeouts\":{\"entry\":[{\"key\":\"LIFETIME\",\"value\":1.5}]}"))
        .isInstanceOf(Rejection.class).hasMessageContaining("whole number");
    assertThatThrownBy(() -> parse(",\"application-timeouts\":[10]"))
        .isInstanceOf(Rejection.class).hasMessageContaining("application-timeouts");
    assertThatThrownBy(() -> parse(",\"attempt-failures-validity-interval\":\"soon\""))
        .isInstanceOf(Rejection.class).hasMessageContaining("attempt-failures-validity-interval");
  }

  @Test
  void anUpdateNamesItsTypeAndAnIso8601Expiry() {
    long expiry = AppTimeoutJson.expiryTime(Bodies.tree("""
        {"timeout":{"type":"LIFETIME","expiryTime":"2030-01-02T03:04:05.678+0000"}}"""));
    assertThat(expiry).isEqualTo(Instant.parse("2030-01-02T03:04:05.678Z").toEpochMilli());
    assertThatThrownBy(() -> AppTimeoutJson.expiryTime(Bodies.tree("{\"timeout\":{\"type\":\"LIFETIME\"}}")))
        .isInstanceOf(Rejection.class).hasMessage("Timeout type or ExpiryTime is null.");
    assertThatThrownBy(() -> AppTimeoutJson.expiryTime(Bodies.tree("""
        {"timeout":{"type":"LIFETIME","expiryTime":"tomorrow"}}"""))).isInstanceOf(Rejection.class)
        .hasMessageContaining("not in ISO8601 format").hasMessageContaining("tomorrow");
    assertThatThrownBy(() -> AppTimeoutJson.expiryTime(Bodies.tree("""
        {"timeout":{"type":"QUEUE","expiryTime":"2030-01-02T03:04:05.678+0000"}}"""))).isInstanceOf(Rejection.class)
        .hasMessageContaining("QUEUE");
  }

  @Test
  void theReportShowsTheRemainingLifetimeOrUnlimited() {
    long now = 1_700_000_000_000L;
    Map<String, Object> none = AppTimeoutJson.lifetime(report(AppState.RUNNING, 0), now);
    assertThat(none).containsEntry("expiryTime", "UNLIMITED").containsEntry("remainingTimeInSeconds", -1);

    Map<String, Object> running = AppTimeoutJson.lifetime(report(AppState.RUNNING, now + 27_500), now);
    assertThat(running).containsEntry("type", "LIFETIME").containsEntry("remainingTimeInSeconds", 27L);
    assertThat(running.get("expiryTime")).isEqualTo(AppTimeoutJson.ISO8601.format(
        Instant.ofEpochMilli(now + 27_500).atZone(ZoneId.systemDefault())));
    assertThat(AppTimeoutJson.lifetime(report(AppState.KILLED, now + 27_500), now))
        .containsEntry("remainingTimeInSeconds", 0L);
    assertThat(AppTimeoutJson.lifetime(report(AppState.RUNNING, now - 1), now))
        .containsEntry("remainingTimeInSeconds", 0L);
  }

  private static AppReport report(AppState state, long deadline) {
    return new AppReport("application_1_0001", "alice", "n", "default", state, FinalApplicationStatus.UNDEFINED, "",
        "YARN", List.of(), 0, 1, 0, new Resource(1024, 1), 2, List.of(), PreemptionHistory.NONE, Map.of(), -1,
        deadline);
  }
}
