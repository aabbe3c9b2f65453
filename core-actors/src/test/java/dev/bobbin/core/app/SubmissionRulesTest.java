package dev.bobbin.core.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.policy.ApplicationPriorities;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SubmissionRulesTest {
  private static final SchedulerSettings SCHEDULER = SchedulerSettings.from(ConfigFactory.load());
  private static final String APP = "application_1700000000000_0001";

  private static Submission with(String name, String type, String queue, List<String> tags) {
    return new Submission(APP, name, "alice", queue, 0, type, tags, new Resource(1024, 1),
        new ContainerLaunchContext(List.of("true"), Map.of()), 0);
  }

  private static Submission validate(Submission s) {
    return SubmissionRules.validate(s, SCHEDULER, 2);
  }

  @Test
  void aPriorityBelowZeroIsNoneAskedForAndOthersAreKeptForThePolicyToCap() {
    Submission none = with("n", "YARN", "default", List.of());
    assertThat(validate(none.withPriority(-7)).priority()).isEqualTo(ApplicationPriorities.NONE_ASKED);
    assertThat(validate(none.withPriority(0)).priority()).isZero();
    assertThat(validate(none.withPriority(42)).priority()).isEqualTo(42);
  }

  @Test
  void stringsWithinTheirBoundsAreKept() {
    List<String> ten = IntStream.range(0, 10).mapToObj(i -> "t" + i + "x".repeat(97)).toList();
    Submission s = validate(with("n".repeat(1024), "T".repeat(20), "default", ten));
    assertThat(s.name()).hasSize(1024);
    assertThat(s.applicationType()).isEqualTo("T".repeat(20));
    assertThat(s.tags()).isEqualTo(ten);
  }

  @Test
  void aTypeAboveYarnsTwentyCharactersIsRefusedNotCut() {
    assertThatThrownBy(() -> validate(with("n", "T".repeat(21), "default", List.of())))
        .isInstanceOf(Rejection.class).hasMessageContaining("application-type").hasMessageContaining("at most 20")
        .hasMessageContaining("it had 21");
  }

  @Test
  void longNamesAndQueuesAreRefusedWithTheFieldNamedAndTheValueCutShort() {
    String huge = "n".repeat(1 << 20);
    assertThatThrownBy(() -> validate(with(huge, "YARN", "default", List.of()))).isInstanceOf(Rejection.class)
        .hasMessageContaining("application-name may have at most 1024 characters, it had 1048576")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
    assertThatThrownBy(() -> validate(with("n", "YARN", "q".repeat(1025), List.of()))).isInstanceOf(Rejection.class)
        .hasMessageContaining("queue may have at most 1024");
    assertThatThrownBy(() -> validate(new Submission("application_1_" + "1".repeat(100_000), "n", "alice", "default",
        0, "YARN", List.of(), Resource.NONE, new ContainerLaunchContext(List.of("true"), Map.of()), 0)))
        .isInstanceOf(Rejection.class).hasMessageContaining("Could not parse application id")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
  }

  @Test
  void tagsAreAtMostTenDistinctPrintableAsciiStringsOfAHundred() {
    List<String> eleven = new ArrayList<>(IntStream.range(0, 11).mapToObj(i -> "t" + i).toList());
    assertThatThrownBy(() -> validate(with("n", "YARN", "default", eleven))).isInstanceOf(Rejection.class)
        .hasMessageContaining("application-tags: at most 10 tags are allowed, there were 11");
    assertThatThrownBy(() -> validate(with("n", "YARN", "default", List.of("x".repeat(101)))))
        .isInstanceOf(Rejection.class).hasMessageContaining("application-tags: a tag may have at most 100");
    assertThatThrownBy(() -> validate(with("n", "YARN", "default", List.of("caf\u00e9"))))
        .isInstanceOf(Rejection.class).hasMessageContaining("printable ASCII");
    // Repeats count once, as in YARN's set of tags.
    List<String> repeated = new ArrayList<>(eleven.subList(0, 10));
    repeated.add("t0");
    assertThat(validate(with("n", "YARN", "default", repeated)).tags()).hasSize(10).doesNotHaveDuplicates();
  }
}
