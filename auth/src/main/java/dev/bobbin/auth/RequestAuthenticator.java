package dev.bobbin.auth;

import org.apache.pekko.http.javadsl.model.HttpRequest;

/**
 * Establishes who made a request from its credentials alone, before anything else looks at it.
 * Users ({@link Identity}) have the configured {@link UserAuthenticators}; another kind of caller
 * (a NodeManager with its node credential, say) plugs its own principal type into the same
 * {@link Authentication} directive.
 */
@FunctionalInterface
public interface RequestAuthenticator<P> {
  /** Never throws: a request it cannot make sense of is {@link Verdict.Refused}. */
  Verdict<P> authenticate(HttpRequest request);
}
