package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeCredentialTest {
  @TempDir Path dir;

  @Test
  void theFirstReadMakesACredentialOnlyItsOwnerCanReadAndLaterReadsFindIt() throws Exception {
    Path file = dir.resolve("data").resolve(NodeCredential.FILE_NAME);

    NodeCredential.Loaded made = NodeCredential.readOrCreate(file, "k");
    NodeCredential.Loaded again = NodeCredential.readOrCreate(file, "k");

    assertThat(made.created()).isTrue();
    assertThat(again.created()).isFalse();
    assertThat(again.value()).isEqualTo(made.value()).hasSizeGreaterThanOrEqualTo(22);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(NodeCredential.read(file, "k")).isEqualTo(made.value());
    try (var files = Files.list(file.getParent())) {
      assertThat(files).as("no temporary file left").containsExactly(file);
    }
  }

  @Test
  void aFileWithoutAUsableCredentialIsRefusedNamingTheSetting() throws Exception {
    Path shortOne = Files.writeString(dir.resolve("short"), "abc\n");
    Path notBase64 = Files.writeString(dir.resolve("garbled"), "this is not a credential at all!!\n");

    assertThatThrownBy(() -> NodeCredential.read(shortOne, "bobbin.nm.node-credential-file"))
        .isInstanceOf(SettingsException.class).hasMessageStartingWith("bobbin.nm.node-credential-file: ");
    assertThatThrownBy(() -> NodeCredential.read(notBase64, "k")).isInstanceOf(SettingsException.class);
    assertThatThrownBy(() -> NodeCredential.read(dir.resolve("missing"), "k"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("cannot read");
    assertThatThrownBy(() -> NodeCredential.readOrCreate(shortOne, "k")).isInstanceOf(SettingsException.class);
  }
}
