package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostsFileTest {
  @TempDir Path dir;

  @Test
  void namesAreSeparatedByWhiteSpaceWithCommentsToTheEndOfALine() throws Exception {
    Path file = Files.writeString(dir.resolve("include"), """
        # workers
        node1.example.com Node2.Example.com\tnode3  # rack b
        node4 #node5

        """);

    assertThat(HostsFile.read(file, "k"))
        .containsExactlyInAnyOrder("node1.example.com", "node2.example.com", "node3", "node4");
  }

  @Test
  void aMissingFileIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> HostsFile.read(dir.resolve("none"), "bobbin.rm.nodes.include-path"))
        .isInstanceOf(SettingsException.class).hasMessageStartingWith("bobbin.rm.nodes.include-path: ");
  }
}
