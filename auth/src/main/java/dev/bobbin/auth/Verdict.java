package dev.bobbin.auth;

import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpHeader;

/** What an authenticator made of a request: who made it, or why it is refused. */
public sealed interface Verdict<P> {
  /** @param headers to add to the response, such as a cookie that stands for the caller next time */
  record Accepted<P>(P principal, List<HttpHeader> headers) implements Verdict<P> {
    public Accepted {
      headers = List.copyOf(headers);
    }
  }

  /**
   * @param claimed who the request claimed to be, for the audit log; empty when it named no one
   * @param challenge the {@code WWW-Authenticate} headers that say how to authenticate
   */
  record Refused<P>(String claimed, String reason, List<HttpHeader> challenge) implements Verdict<P> {
    public Refused {
      challenge = List.copyOf(challenge);
    }
  }

  static <P> Verdict<P> accepted(P principal) {
    return new Accepted<>(principal, List.of());
  }
}
