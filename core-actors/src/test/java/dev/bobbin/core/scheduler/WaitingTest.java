package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitingTest {
  private final Waiting waiting = new Waiting();

  private SchedApp app(String id) {
    SchedApp a = new SchedApp(waiting, id, QueuePath.of("default"), "alice", 0, 0, Resource.of(1024, 1), null);
    a.startAttempt(id + "_000001");
    return a;
  }

  private static List<String> ids(Waiting w) {
    return w.apps().stream().map(a -> a.appId).toList();
  }

  @Test
  void holdsTheApplicationsWithAsksInTheOrderTheyJoined() {
    SchedApp first = app("app_1");
    SchedApp second = app("app_2");
    SchedApp third = app("app_3");
    assertThat(ids(waiting)).containsExactly("app_1", "app_2", "app_3");

    second.clearAsks();
    assertThat(ids(waiting)).containsExactly("app_1", "app_3");

    // Asking again puts it back where it joined, not at the end.
    second.replaceAsk(new Ask(1, Ask.ANY, Resource.of(1024, 1), 2, true, 0, false));
    assertThat(ids(waiting)).containsExactly("app_1", "app_2", "app_3");

    first.setAsks(List.of());
    third.leave();
    assertThat(ids(waiting)).containsExactly("app_2");

    second.replaceAsk(new Ask(1, Ask.ANY, Resource.of(1024, 1), 0, true, 0, false));
    assertThat(waiting.apps()).isEmpty();
  }
}
