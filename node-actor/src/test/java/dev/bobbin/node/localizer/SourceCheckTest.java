package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class SourceCheckTest {
  private static final LocalResource R = LocalResource.of("file:///data/app.jar", LocalResource.Type.FILE,
      LocalResource.Visibility.PUBLIC, 100, 1_700_000_000_123L);

  @Test
  void anUnchangedSourcePasses() {
    assertThatCode(() -> SourceCheck.verify(R, 100, 1_700_000_000_123L, false, 0)).doesNotThrowAnyException();
  }

  @Test
  void aChangedTimeIsRefusedWithYarnsMessage() {
    assertThatThrownBy(() -> SourceCheck.verify(R, 100, 1_700_000_999_000L, false, 0))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("Resource file:///data/app.jar changed on src filesystem - expected: \"2023-11-14T22:13:20.123Z\"")
        .hasMessageContaining("was: \"2023-11-14T22:29:59Z\"");
  }

  @Test
  void aChangedSizeIsRefused() {
    assertThatThrownBy(() -> SourceCheck.verify(R, 101, 1_700_000_000_123L, false, 0))
        .hasMessageContaining("changed on src filesystem - expected size: 100 bytes, was: 101 bytes");
  }

  @Test
  void httpTimesCompareInWholeSeconds() {
    assertThatCode(() -> SourceCheck.verify(R, 100, 1_700_000_000_000L, true, 0)).doesNotThrowAnyException();
    assertThatThrownBy(() -> SourceCheck.verify(R, 100, 1_700_000_001_000L, true, 0))
        .hasMessageContaining("changed on src filesystem");
  }
}
