package dev.bobbin.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.core.base.Rejection;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceDataJsonTest {
  private static Map<String, String> parse(String serviceData) {
    return SubmissionJson.parse(Bodies.tree("""
        {"application-id":"application_1_0001","am-container-spec":{"commands":{"command":"x"},
         "service-data":%s}}""".formatted(serviceData)), "alice").amLaunch().serviceData();
  }

  @Test
  void carriesEachServicesDataInPlainBase64() {
    // ">>>?" is "Pj4-Pw" in URL-safe base64, as YARN's REST clients write it, and "Pj4+Pw==" in plain.
    var parsed = parse("""
        {"entry":[{"key":"files","value":"Pj4-Pw"},{"key":"other","value":"c2VjcmV0"}]}""");
    assertThat(parsed).containsOnlyKeys("files", "other");
    assertThat(Base64.getDecoder().decode(parsed.get("files"))).isEqualTo(">>>?".getBytes(StandardCharsets.UTF_8));
    assertThat(new String(Base64.getDecoder().decode(parsed.get("other")), StandardCharsets.UTF_8)).isEqualTo("secret");
  }

  @Test
  void readsTheMapShapesOfHadoopsWriters() {
    assertThat(parse("{\"entry\":{\"key\":\"files\",\"value\":\"c2VjcmV0\"}}")).containsOnlyKeys("files");
    assertThat(parse("{\"files\":\"c2VjcmV0\",\"other\":\"YQ\"}")).containsOnlyKeys("files", "other");
    assertThat(parse("\"\"")).isEmpty();
  }

  @Test
  void noServiceDataIsNone() {
    assertThat(SubmissionJson.parse(Bodies.tree("""
        {"application-id":"application_1_0001","am-container-spec":{"commands":{"command":"x"}}}"""), "alice")
        .amLaunch().serviceData()).isEmpty();
  }

  @Test
  void refusesBadEntriesNamingTheField() {
    assertRefused("{\"entry\":[{\"key\":\"files\",\"value\":\"not base64!\"}]}",
        "am-container-spec.service-data[files].value is not base64");
    assertRefused("{\"entry\":[{\"key\":\"files\",\"value\":1}]}", "service-data[files].value must be a base64 string");
    assertRefused("{\"entry\":[{\"key\":\"\",\"value\":\"YQ\"}]}", "service-data.entry.key must be a non-empty string");
    assertRefused("{\"entry\":[{\"key\":\"f\",\"value\":\"YQ\"},{\"key\":\"f\",\"value\":\"Yg\"}]}",
        "the service 'f' appears twice");
    assertRefused("\"files\"", "am-container-spec.service-data must be a map");
  }

  private static void assertRefused(String serviceData, String message) {
    assertThatThrownBy(() -> parse(serviceData)).isInstanceOf(Rejection.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((Rejection) e).status()).isEqualTo(400));
  }
}
