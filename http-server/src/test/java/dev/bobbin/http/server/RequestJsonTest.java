package dev.bobbin.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.am.FinishAmRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import org.junit.jupiter.api.Test;

class RequestJsonTest {
  private static NodeHeartbeatRequest heartbeat(String json) throws Exception {
    return RequestJson.reader(NodeHeartbeatRequest.class).readValue(json);
  }

  @Test
  void readsWhatBobbinsClientsSend() throws Exception {
    NodeHeartbeatRequest r = heartbeat("{\"nodeId\":\"h:1\",\"responseId\":7,\"healthy\":true}");
    assertThat(r.responseId()).isEqualTo(7);
    assertThat(r.healthy()).isTrue();
    FinishAmRequest f = RequestJson.reader(FinishAmRequest.class).readValue("{\"finalApplicationStatus\":\"SUCCEEDED\"}");
    assertThat(f.finalApplicationStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
  }

  @Test
  void aNumberOutsideItsTypeIsRefusedNotWrappedAround() {
    // 2^32 + 1 would be 1 as an int.
    assertThatThrownBy(() -> heartbeat("{\"responseId\":4294967297}")).isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("4294967297").hasMessageContaining("int");
  }

  @Test
  void fractionsStringsAndOrdinalsAreNotTakenForWhatTheFieldHolds() {
    assertThatThrownBy(() -> heartbeat("{\"responseId\":1.9}")).isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("1.9");
    assertThatThrownBy(() -> heartbeat("{\"responseId\":\"7\"}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> heartbeat("{\"healthy\":\"true\"}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> heartbeat("{\"healthy\":1}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> RequestJson.reader(FinishAmRequest.class).readValue("{\"finalApplicationStatus\":2}"))
        .isInstanceOf(JsonProcessingException.class);
  }

  @Test
  void nestingNumbersAndNamesBeyondTheirBoundsAreRefused() throws Exception {
    String deep = "[".repeat(RequestJson.MAX_NESTING + 1) + "]".repeat(RequestJson.MAX_NESTING + 1);
    assertThatThrownBy(() -> RequestJson.mapper().readTree(deep)).isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("nesting depth");
    String shallow = "[".repeat(RequestJson.MAX_NESTING) + "]".repeat(RequestJson.MAX_NESTING);
    assertThat(RequestJson.mapper().readTree(shallow).isArray()).isTrue();
    assertThatThrownBy(() -> heartbeat("{\"responseId\":" + "9".repeat(RequestJson.MAX_NUMBER_LENGTH + 1) + "}"))
        .isInstanceOf(JsonProcessingException.class).hasMessageContaining("Number value length");
    assertThatThrownBy(() -> heartbeat("{\"" + "n".repeat(RequestJson.MAX_NAME_LENGTH + 1) + "\":1}"))
        .isInstanceOf(JsonProcessingException.class).hasMessageContaining("Name length");
  }
}
