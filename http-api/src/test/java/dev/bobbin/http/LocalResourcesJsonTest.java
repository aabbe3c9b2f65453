package dev.bobbin.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.core.base.Rejection;
import dev.bobbin.protocol.LocalResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalResourcesJsonTest {
  private static Map<String, LocalResource> parse(String entries) {
    return SubmissionJson.parse(Bodies.tree("""
        {"application-id":"application_1_0001","am-container-spec":{"commands":{"command":"x"},
         "local-resources":%s}}""".formatted(entries)), "alice").amLaunch().localResources();
  }

  private static String entry(String key, String value) {
    return "{\"entry\":[{\"key\":" + key + ",\"value\":" + value + "}]}";
  }

  @Test
  void readsYarnsLocalResourceEntries() {
    var parsed = parse("""
        {"entry":[{"key":"app.jar","value":{"resource":"http://repo:8080/app.jar","type":"ARCHIVE",
          "visibility":"PUBLIC","size":1234,"timestamp":1700000000000}},
         {"key":"conf.xml","value":{"resource":"file:///data/conf.xml","type":"FILE","visibility":"APPLICATION",
          "size":"12","timestamp":"99"}}]}""");
    assertThat(parsed).containsOnlyKeys("app.jar", "conf.xml");
    assertThat(parsed.get("app.jar")).isEqualTo(LocalResource.of("http://repo:8080/app.jar",
        LocalResource.Type.ARCHIVE, LocalResource.Visibility.PUBLIC, 1234, 1700000000000L));
    assertThat(parsed.get("conf.xml").size()).isEqualTo(12);
  }

  @Test
  void aSingleEntryNeedsNoArray() {
    assertThat(parse("{\"entry\":{\"key\":\"f\",\"value\":{\"resource\":\"file:///f\",\"type\":\"FILE\","
        + "\"visibility\":\"PRIVATE\",\"size\":1,\"timestamp\":1}}}")).containsOnlyKeys("f");
  }

  @Test
  void refusesBadEntriesNamingTheField() {
    String ok = "{\"resource\":\"file:///f\",\"type\":\"FILE\",\"visibility\":\"PUBLIC\",\"size\":1,\"timestamp\":1}";
    assertRefused(entry("\"../x\"", ok), "local-resources.entry.key '../x' must be a plain file name");
    assertRefused(entry("\"\"", ok), "local-resources.entry.key must be a non-empty string");
    assertRefused(entry("{\"a\":1}", ok), "local-resources.entry.key must be a string");
    assertRefused(entry("\"f\"", ok.replace("file:///f", "hdfs://nn/f")),
        "local-resources[f].resource must be a file://, http:// or https:// URL");
    assertRefused(entry("\"f\"", ok.replace("FILE", "BLOB")), "local-resources[f].type must be one of");
    assertRefused(entry("\"f\"", ok.replace("PUBLIC", "SHARED")), "local-resources[f].visibility must be one of");
    assertRefused(entry("\"f\"", ok.replace("\"size\":1", "\"size\":0")),
        "local-resources[f].size must be greater than 0");
    assertRefused(entry("\"f\"", ok.replace("\"timestamp\":1", "\"timestamp\":\"soon\"")),
        "local-resources[f].timestamp must be a whole number");
    assertRefused(entry("\"f\"", ok.replace("FILE", "PATTERN").replace("}", ",\"pattern\":\"[\"}")),
        "local-resources[f].pattern is not a regular expression");
    assertRefused(entry("\"f\"", "\"file:///f\""), "local-resources[f].value must be a JSON object");
    assertRefused("\"f\"", "am-container-spec.local-resources must be a JSON object");
  }

  private static void assertRefused(String entries, String message) {
    assertThatThrownBy(() -> parse(entries)).isInstanceOf(Rejection.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((Rejection) e).status()).isEqualTo(400));
  }
}
