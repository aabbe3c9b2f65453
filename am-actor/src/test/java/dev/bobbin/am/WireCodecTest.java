package dev.bobbin.am;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.am.AllocateResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Hadoop's JSON writes a one-element list as an object and an empty one as null; both must read. */
class WireCodecTest {

  @Test
  void readsSingleObjectsAndNullsAsLists() throws Exception {
    String json = """
        {"responseId":3,
         "allocatedContainers":{"id":"container_1_0001_01_000002","nodeId":"n:1","nodeHttpAddress":"n:8042",
                                "resource":{"memory":512,"vCores":1},"priority":1,"containerToken":"t",
                                "allocationRequestId":-1},
         "completedContainerStatuses":null,
         "numClusterNodes":1}""";
    AllocateResponse r = WireCodec.read(json.getBytes(StandardCharsets.UTF_8), AllocateResponse.class);
    assertThat(r.allocatedContainers()).singleElement().satisfies(c -> assertThat(c.resource().vCores()).isEqualTo(1));
    assertThat(r.completedContainerStatuses()).isEmpty();
    assertThat(r.amCommand()).isNull();
  }

  @Test
  void recognisesARemoteException() {
    byte[] body = """
        {"RemoteException":{"exception":"ApplicationMasterNotRegisteredException","message":"m","javaClassName":"x.y"}}"""
        .getBytes(StandardCharsets.UTF_8);
    assertThat(WireCodec.remoteException(body)).hasValueSatisfying(b ->
        assertThat(b.exception()).isEqualTo(AmClient.NOT_REGISTERED));
    assertThat(WireCodec.remoteException("<html>".getBytes(StandardCharsets.UTF_8))).isEmpty();
  }
}
