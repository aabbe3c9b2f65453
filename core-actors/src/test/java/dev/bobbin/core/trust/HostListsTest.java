package dev.bobbin.core.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** YARN's include and exclude lists, as its NodesListManager applies them at registration. */
class HostListsTest {
  @Test
  void withoutListsEveryHostMayRegister() {
    assertThat(HostLists.ANY.refusal("any.example.org")).isEmpty();
  }

  @Test
  void withAnIncludeListOnlyItsHostsMayAndAnExcludedHostNeverMay() {
    HostLists lists = new HostLists(Optional.of(Set.of("a.example.org", "b.example.org")), Set.of("b.example.org"));

    assertThat(lists.refusal("A.example.org")).as("names compare without regard to case").isEmpty();
    assertThat(lists.refusal("b.example.org")).get().asString().contains("Disallowed NodeManager", "b.example.org");
    assertThat(lists.refusal("c.example.org")).get().asString().contains("Disallowed NodeManager", "c.example.org");
    assertThat(new HostLists(Optional.empty(), Set.of("b.example.org")).refusal("c.example.org")).isEmpty();
  }

  @Test
  void aHostInNeitherListIsUntrackedOnlyWhenThereIsAnIncludeList() {
    HostLists lists = new HostLists(Optional.of(Set.of("a.example.org")), Set.of("b.example.org"));

    assertThat(lists.untracked("C.example.org")).isTrue();
    assertThat(lists.untracked("a.example.org")).as("included").isFalse();
    assertThat(lists.untracked("b.example.org")).as("excluded: it stays, DECOMMISSIONED").isFalse();
    assertThat(new HostLists(Optional.empty(), Set.of()).untracked("c.example.org")).isFalse();
    assertThat(new HostLists(Optional.of(Set.of()), Set.of()).untracked("c.example.org"))
        .as("an empty include list includes every host").isFalse();
  }
}
