package dev.bobbin.core.directory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.Attempt;
import dev.bobbin.core.app.AttemptState;
import dev.bobbin.core.app.PreemptionHistory;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApplicationSummaryTest {
  @Test
  void aFinishedApplicationIsOneLineOfEscapedKeyValuePairs() {
    Attempt attempt = new Attempt("appattempt_1_0001_000001", 1, AttemptState.FAILED, 5, 9, "c", "n:1", "n:2", "host",
        7, "http://t", 1, "boom");
    AppReport r = new AppReport("application_1_0001", "alice", "etl, nightly", "root.q", AppState.FAILED,
        FinalApplicationStatus.FAILED, "failed\nafter a=b", "SPARK", List.of("x", "y"), 0, 3, 10, new Resource(1, 1), 1,
        List.of(attempt), PreemptionHistory.NONE, Map.of(), -1, 0);

    String line = ApplicationSummary.line(r);

    assertThat(line).doesNotContain("\n")
        .startsWith("appId=application_1_0001,name=etl\\, nightly,user=alice,queue=root.q,state=FAILED,"
            + "trackingUrl=http://t,appMasterHost=host,submitTime=3,startTime=3,launchTime=5,finishTime=10,"
            + "finalStatus=FAILED,")
        .contains(",applicationType=SPARK,applicationTags=x\\,y,attempts=1,attemptFailuresCounted=1,")
        .endsWith(",diagnostics=failed\\nafter a\\=b");
  }
}
