package dev.bobbin.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
