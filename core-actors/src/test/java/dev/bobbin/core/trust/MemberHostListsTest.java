package dev.bobbin.core.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.config.NodeTrustSettings;
import dev.bobbin.config.SettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemberHostListsTest {
  @TempDir Path dir;

  private MemberHostLists lists(Path include, Path exclude) {
    return new MemberHostLists(new NodeTrustSettings(dir.resolve("credential"), false,
        Optional.ofNullable(include), Optional.ofNullable(exclude)));
  }

  @Test
  void aReloadSeesTheFilesAsTheyAreNow() throws Exception {
    Path exclude = Files.writeString(dir.resolve("exclude"), "old.example.org\n");
    MemberHostLists lists = lists(null, exclude);
    assertThat(lists.current().refusal("new.example.org")).isEmpty();

    Files.writeString(exclude, "new.example.org # retired\n");
    lists.reload();

    assertThat(lists.current().refusal("new.example.org")).isPresent();
    assertThat(lists.current().refusal("old.example.org")).isEmpty();
  }

  @Test
  void aListThatCannotBeReadIsRefusedNamingItAndTheListsInUseStay() throws Exception {
    Path include = Files.writeString(dir.resolve("include"), "a.example.org\n");
    Path exclude = Files.writeString(dir.resolve("exclude"), "b.example.org\n");
    MemberHostLists lists = lists(include, exclude);
    Files.writeString(include, "c.example.org\n");
    Files.delete(exclude);

    assertThatThrownBy(lists::reload).isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.rm.nodes.exclude-path").hasMessageContaining(exclude.toString());

    assertThat(lists.current().refusal("a.example.org")).as("the include list read at start").isEmpty();
    assertThat(lists.current().refusal("c.example.org")).isPresent();
  }
}
