package dev.bobbin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class AuditLogTest {
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final Logger audit = (Logger) LoggerFactory.getLogger(AuditLog.LOGGER);

  @BeforeEach
  void attach() {
    lines.start();
    audit.addAppender(lines);
  }

  @AfterEach
  void detach() {
    audit.detachAppender(lines);
  }

  @Test
  void successAndFailureLinesAsHadoopWritesThem() {
    AuditLog.of("alice", "10.0.0.7", "Submit Application Request", "ClientRMService").app("application_1_0001")
        .queue("root.eng").success();
    AuditLog.of("bob", "10.0.0.8", "Kill Application Request", "ClientRMService").app("application_1_0001")
        .failure("User bob cannot perform operation MODIFY_APP");
    assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
        "USER=alice\tIP=10.0.0.7\tOPERATION=Submit Application Request\tTARGET=ClientRMService\tRESULT=SUCCESS"
            + "\tAPPID=application_1_0001\tQUEUENAME=root.eng",
        "USER=bob\tIP=10.0.0.8\tOPERATION=Kill Application Request\tTARGET=ClientRMService\tRESULT=FAILURE"
            + "\tDESCRIPTION=User bob cannot perform operation MODIFY_APP\tAPPID=application_1_0001");
  }

  @Test
  void aCallerCannotBreakTheLine() {
    AuditLog.of("mallory\nUSER=admin", "", "Get Application Report", "RM").app("app\tRESULT=SUCCESS").failure("x\r\ny");
    String line = lines.list.get(0).getFormattedMessage();
    assertThat(line).doesNotContain("\n").doesNotContain("\r");
    assertThat(line.split("\t")).hasSize(7);
  }
}
