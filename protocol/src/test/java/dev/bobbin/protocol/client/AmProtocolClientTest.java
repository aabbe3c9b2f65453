package dev.bobbin.protocol.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.FinishAmRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AmProtocolClientTest {
  private TestingServer server;

  @AfterEach
  void stop() {
    if (server != null) server.close();
  }

  @Test
  void aNewAmTokenInAnAllocateResponseIsSentFromTheNextCallOn() throws Exception {
    server = TestingServer.start()
        .on(WirePaths.AM_ALLOCATE, 200, "{\"responseId\":1,\"amRmToken\":\"second\"}")
        .on(WirePaths.AM_FINISH, 200, "{\"isUnregistered\":true}");
    AmProtocolClient client = AmProtocolClient.create("first", Duration.ofSeconds(2), Duration.ofSeconds(5));

    client.allocate(server.url(), new AllocateRequest(0, 0f, List.of(), List.of())).join();
    client.finish(server.url(), new FinishAmRequest(null, "", "")).join();

    assertThat(server.received).extracting(r -> r.header(WirePaths.AM_TOKEN_HEADER))
        .containsExactly("first", "second");
    assertThat(client.amToken()).isEqualTo("second");
  }

  @Test
  void anAllocateResponseWithoutATokenKeepsTheOneInUse() throws Exception {
    server = TestingServer.start().on(WirePaths.AM_ALLOCATE, 200, "{\"responseId\":1}");
    AmProtocolClient client = AmProtocolClient.create("first", Duration.ofSeconds(2), Duration.ofSeconds(5));

    client.allocate(server.url(), new AllocateRequest(0, 0f, List.of(), List.of())).join();
    client.allocate(server.url(), new AllocateRequest(1, 0f, List.of(), List.of())).join();

    assertThat(server.received).extracting(r -> r.header(WirePaths.AM_TOKEN_HEADER))
        .containsExactly("first", "first");
  }
}
