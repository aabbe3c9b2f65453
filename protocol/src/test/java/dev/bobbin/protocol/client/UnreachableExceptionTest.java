package dev.bobbin.protocol.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.nio.channels.UnresolvedAddressException;
import org.junit.jupiter.api.Test;

/** The JDK leaves most connect failures without a message; the reason names the usual causes. */
class UnreachableExceptionTest {
  @Test
  void connectFailuresWithoutMessagesGetAReadableReason() {
    ConnectException unresolved = new ConnectException();
    unresolved.initCause(new UnresolvedAddressException());

    assertThat(new UnreachableException("http://rm", new ConnectException()).reason()).isEqualTo("connection refused");
    assertThat(new UnreachableException("http://rm", unresolved).reason()).isEqualTo("unknown host");
    assertThat(new UnreachableException("http://rm", new ConnectException("No route to host")).reason())
        .isEqualTo("No route to host");
  }
}
