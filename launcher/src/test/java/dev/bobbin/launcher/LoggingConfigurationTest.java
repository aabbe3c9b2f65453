package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logging configuration the RM members and NodeManagers run with: it must load without an
 * error, or logback drops it and nothing they log is written (operators and the chaos suite read
 * those logs).
 */
class LoggingConfigurationTest {

  @Test
  void theLauncherConfigurationLoadsAndDatesEachApplicationSummaryLine(@TempDir Path dir) throws Exception {
    Path summary = dir.resolve("rm-appsummary.log");
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    context.putProperty("bobbin.appsummary.file", summary.toString());
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(Main.class.getResource("/logback.xml"));

    assertNoWarnings(context);

    context.getLogger("dev.bobbin.core.directory.ApplicationSummary").info("appId=application_1_0001,name=x");
    context.stop();
    assertNoWarnings(context);
    assertThat(Files.readString(summary))
        .matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3} appId=application_1_0001,name=x\\R");
  }

  private static void assertNoWarnings(LoggerContext context) {
    assertThat(context.getStatusManager().getCopyOfStatusList())
        .allSatisfy(s -> assertThat(s.getLevel()).as(s.getMessage() + ": " + s.getThrowable()).isLessThan(Status.WARN));
  }
}
