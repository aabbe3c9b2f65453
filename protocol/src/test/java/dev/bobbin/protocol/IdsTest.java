package dev.bobbin.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class IdsTest {
  @Test
  void formatsAsYarnDoes() {
    String app = Ids.applicationId(1476912658570L, 2);
    assertThat(app).isEqualTo("application_1476912658570_0002");
    String attempt = Ids.attemptId(app, 1);
    assertThat(attempt).isEqualTo("appattempt_1476912658570_0002_000001");
    assertThat(Ids.containerId(attempt, 0, 5)).isEqualTo("container_1476912658570_0002_01_000005");
    assertThat(Ids.containerId(attempt, 17, 5)).isEqualTo("container_e17_1476912658570_0002_01_000005");
  }

  @Property
  void zeroPadsAsYarnsFormatStringsDoAtAnyWidth(
      @ForAll @LongRange(min = 0, max = 9_999_999_999_999L) long clusterTimestamp,
      @ForAll @IntRange(min = 0, max = 99_999) int appSequence,
      @ForAll @IntRange(min = 1, max = 1_234_567) int attemptNumber,
      @ForAll @LongRange(min = 0, max = 99_999_999L) long epoch,
      @ForAll @LongRange(min = 0, max = 99_999_999L) long containerSequence) {
    String app = Ids.applicationId(clusterTimestamp, appSequence);
    assertThat(app).isEqualTo(String.format("application_%d_%04d", clusterTimestamp, appSequence));
    String attempt = Ids.attemptId(app, attemptNumber);
    String attemptTail = String.format("%d_%04d_%06d", clusterTimestamp, appSequence, attemptNumber);
    assertThat(attempt).isEqualTo("appattempt_" + attemptTail);
    String container = Ids.containerId(attempt, epoch, containerSequence);
    assertThat(container).isEqualTo(String.format("container_%s%d_%04d_%02d_%06d",
        epoch > 0 ? "e" + epoch + "_" : "", clusterTimestamp, appSequence, attemptNumber, containerSequence));
    assertThat(Ids.attemptIdOfContainer(container)).isEqualTo(attempt);
  }

  @Test
  void parsesBackToTheOwningAttemptAndApplication() {
    String c = "container_e17_1410901177871_0001_01_000005";
    assertThat(Ids.attemptIdOfContainer(c)).isEqualTo("appattempt_1410901177871_0001_000001");
    assertThat(Ids.applicationIdOfContainer(c)).isEqualTo("application_1410901177871_0001");
    assertThat(Ids.applicationIdOfAttempt("appattempt_1410901177871_0001_000002")).isEqualTo("application_1410901177871_0001");
    assertThat(Ids.attemptNumber("appattempt_1410901177871_0001_000002")).isEqualTo(2);
  }

  @Test
  void rejectsWhatIsNotAnId() {
    assertThat(Ids.isApplicationId("application_1_1")).isFalse();
    assertThat(Ids.isApplicationId("application_1_0001")).isTrue();
    assertThat(Ids.isContainerId("container_1_0001_01_000001")).isTrue();
    assertThatThrownBy(() -> Ids.attemptId("app_1", 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("app_1");
  }

  @Test
  void anIdWhoseNumbersDoNotFitYarnsTypesIsNoId() {
    // YARN's ApplicationId: a long cluster timestamp and an int sequence.
    assertThat(Ids.isApplicationId("application_9223372036854775807_2147483647")).isTrue();
    assertThat(Ids.isApplicationId("application_9223372036854775808_0001")).isFalse();
    assertThat(Ids.isApplicationId("application_1_2147483648")).isFalse();
    assertThat(Ids.isApplicationId("application_1_" + "1".repeat(40))).isFalse();
    assertThat(Ids.isApplicationId("application_" + "1".repeat(40) + "_0001")).isFalse();
    assertThat(Ids.isAttemptId("appattempt_1_0001_000001")).isTrue();
    assertThat(Ids.isAttemptId("appattempt_1_0001_2147483648")).isFalse();
    assertThat(Ids.isContainerId("container_e17_1410901177871_0001_01_000005")).isTrue();
    assertThat(Ids.isContainerId("container_1_0001_01_9223372036854775807")).isTrue();
    assertThat(Ids.isContainerId("container_1_0001_01_9223372036854775808")).isFalse();
    assertThat(Ids.isContainerId("container_1_0001_2147483648_000001")).isFalse();
  }

  @Test
  void aNodeIdIsAHostAndAPort() {
    assertThat(Ids.isNodeId("worker-1.example.com:8042")).isTrue();
    assertThat(Ids.isNodeId("127.0.0.1:0")).isTrue();
    assertThat(Ids.isNodeId("127.0.0.1:65536")).isFalse();
    assertThat(Ids.isNodeId("worker-1")).isFalse();
    assertThat(Ids.isNodeId("worker 1:8042")).isFalse();
    assertThat(Ids.isNodeId("h".repeat(256) + ":8042")).isFalse();
  }
}
