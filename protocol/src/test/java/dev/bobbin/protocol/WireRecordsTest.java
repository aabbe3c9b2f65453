package dev.bobbin.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.PreemptionMessage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireRecordsTest {
  @Test
  void allocateResponsesRoundTripWithAndWithoutAPreemptionMessage() throws Exception {
    var plain = new AllocateResponse(3, List.of(), List.of(ContainerStatus.completed("c", 0, "", Resource.NONE)),
        new Resource(1, 1), 2, null);
    var preempt = new AllocateResponse(4, List.of(), List.of(), Resource.NONE, 2, null, new PreemptionMessage(
        List.of(new PreemptionMessage.PreemptedContainer("container_1_0001_01_000002", 99, "queue b starved")),
        List.of(), List.of()));
    for (AllocateResponse r : List.of(plain, preempt)) {
      String json = WireJson.mapper().writeValueAsString(r);
      assertThat(WireJson.mapper().readValue(json, AllocateResponse.class)).isEqualTo(r);
    }
  }

  @Test
  void launchContextsCarryLocalResourcesUnderYarnsNames() throws Exception {
    var ctx = new ContainerLaunchContext(List.of("run"), Map.of("K", "V"), Map.of("app.jar",
        LocalResource.of("http://h/app.jar", LocalResource.Type.ARCHIVE, LocalResource.Visibility.PUBLIC, 10, 20)));
    String json = WireJson.mapper().writeValueAsString(ctx);
    assertThat(json).contains("\"local-resources\":{\"app.jar\":{\"resource\":\"http://h/app.jar\"",
        "\"type\":\"ARCHIVE\"", "\"visibility\":\"PUBLIC\"", "\"size\":10", "\"timestamp\":20");
    assertThat(WireJson.mapper().readValue(json, ContainerLaunchContext.class)).isEqualTo(ctx);
    assertThat(WireJson.mapper().readValue("{\"commands\":[\"x\"]}", ContainerLaunchContext.class).localResources())
        .isEmpty();
  }
}
