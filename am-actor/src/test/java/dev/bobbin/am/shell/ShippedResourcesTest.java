package dev.bobbin.am.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.LocalResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShippedResourcesTest {
  @Test
  void theAmReadsWhatTheClientWrote() {
    var shipped = Map.of("data.tgz", LocalResource.of("file:///srv/data.tgz", LocalResource.Type.ARCHIVE,
        LocalResource.Visibility.APPLICATION, 5, 6));
    String value = ShippedResources.encode(shipped);
    assertThat(ShippedResources.fromEnvironment(Map.of(ShippedResources.ENV, value))).isEqualTo(shipped);
    assertThat(ShippedResources.fromEnvironment(Map.of())).isEmpty();
  }

  @Test
  void aMalformedValueIsRefusedNamingTheVariable() {
    assertThatThrownBy(() -> ShippedResources.fromEnvironment(Map.of(ShippedResources.ENV, "[1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(ShippedResources.ENV + " is not a map of local resources");
  }
}
