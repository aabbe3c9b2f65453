package dev.bobbin.protocol.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * The HTTP transport of every Bobbin client: JSON over HTTP/1.1 with the JDK's client, a connect
 * and a per-call timeout, and the caller's {@link Credentials} and {@link TlsSettings}, applied to
 * every request it sends. By default it sends no credentials and trusts what the JVM trusts.
 *
 * <p>A call completes with the {@link Reply} to a 2xx, and fails with a {@link CallException}
 * otherwise: {@link RemoteErrorException} for an error status (with YARN's RemoteException decoded),
 * {@link UnreachableException} when no answer came, {@link UnreadableReplyException} when the body
 * cannot be decoded. It never resends a POST or PUT: what to do after a failure is the caller's.
 */
public final class BobbinHttp {
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient client;
  private final Duration requestTimeout;
  private final Credentials credentials;
  private final TlsSettings tls;

  private BobbinHttp(HttpClient client, Duration requestTimeout, Credentials credentials, TlsSettings tls) {
    this.client = client;
    this.requestTimeout = requestTimeout;
    this.credentials = credentials;
    this.tls = tls;
  }

  private static HttpClient newClient(Builder b) {
    HttpClient.Builder http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(b.connectTimeout)
        // A 307 from a member that does not serve a path leads to one that does; never https to http.
        .followRedirects(HttpClient.Redirect.NORMAL);
    b.tls.applyTo(http);
    if (b.executor != null) http.executor(b.executor);
    return http.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Default timeouts, no credentials, the JVM's TLS trust. */
  public static BobbinHttp withDefaults() {
    return builder().build();
  }

  /**
   * The same transport (connections, timeouts, TLS) calling as someone else: for a process that
   * acts for many callers, such as AMs of many attempts, without a connection pool for each.
   */
  public BobbinHttp withCredentials(Credentials other) {
    if (other == null) throw new IllegalArgumentException("credentials is null; use Credentials.NONE");
    return new BobbinHttp(client, requestTimeout, other, tls);
  }

  /**
   * The same transport (connections, credentials, TLS) waiting {@code timeout} for each call that
   * sets none: for a caller whose calls need different patience, without a client for each.
   */
  public BobbinHttp withRequestTimeout(Duration timeout) {
    return new BobbinHttp(client, Builder.positive(timeout, "requestTimeout"), credentials, tls);
  }

  public CompletableFuture<Reply> send(Call call) {
    HttpRequest request;
    try {
      request = credentials.authenticate(toRequest(call));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(new UnreachableException(call.url(), e));
    }
    CompletableFuture<Reply> reply = new CompletableFuture<>();
    client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
      if (error != null) {
        reply.completeExceptionally(new UnreachableException(call.url(), unwrap(error)));
      } else if (response.statusCode() / 100 != 2) {
        reply.completeExceptionally(RemoteErrorException.of(call.url(), response.statusCode(), response.body()));
      } else {
        reply.complete(new Reply(call.url(), response.statusCode(), response.headers(), response.body()));
      }
    });
    return reply;
  }

  /** {@link #send} and the body decoded as {@code answer}. */
  public <T> CompletableFuture<T> call(Call call, Class<T> answer) {
    return send(call).thenApply(r -> r.as(answer));
  }

  /** {@link #send}, waiting for the answer on this thread. */
  public Reply sendAndWait(Call call) {
    return await(send(call));
  }

  public <T> T callAndWait(Call call, Class<T> answer) {
    return await(call(call, answer));
  }

  /**
   * The result of a stage of this client, waited for: its value, or the exception it failed with
   * ({@link CallException} or the caller's own), not wrapped.
   */
  public static <T> T await(CompletableFuture<T> stage) {
    try {
      return stage.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw CallException.of(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stage.cancel(true);
      throw new UnreachableException("", e);
    }
  }

  private HttpRequest toRequest(Call call) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(tls.upgrade(call.url())))
        .timeout(call.timeout() != null ? call.timeout() : requestTimeout)
        .header("Accept", call.accept().value());
    if (call.body() == null) return b.method(call.method(), HttpRequest.BodyPublishers.noBody()).build();
    return b.header("Content-Type", MediaType.JSON.value())
        .method(call.method(), HttpRequest.BodyPublishers.ofByteArray(ClientJson.write(call.body())))
        .build();
  }

  private static Throwable unwrap(Throwable error) {
    Throwable t = error;
    while (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
    return t;
  }

  /** Timeouts, credentials and TLS of a transport. */
  public static final class Builder {
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Credentials credentials = Credentials.NONE;
    private TlsSettings tls;
    private Executor executor;

    private Builder() {}

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connectTimeout");
      return this;
    }

    /** For each call that sets none: from sending the request until its answer arrives. */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout, "requestTimeout");
      return this;
    }

    public Builder credentials(Credentials credentials) {
      if (credentials == null) throw new IllegalArgumentException("credentials is null; use Credentials.NONE");
      this.credentials = credentials;
      return this;
    }

    public Builder tls(TlsSettings tls) {
      if (tls == null) throw new IllegalArgumentException("tls is null; use TlsSettings.system()");
      this.tls = tls;
      return this;
    }

    /**
     * Where the transport does its work on answers (reading them, completing the calls); by
     * default the JDK client's own pool. A process that makes many small calls and waits for each,
     * such as a load generator, saves a hand-off per call with {@code Runnable::run}, which does it
     * on the client's I/O thread: then nothing chained onto a call may block.
     */
    public Builder executor(Executor executor) {
      if (executor == null) throw new IllegalArgumentException("executor is null; leave it unset for the default");
      this.executor = executor;
      return this;
    }

    public BobbinHttp build() {
      if (tls == null) tls = TlsSettings.system();
      return new BobbinHttp(newClient(this), requestTimeout, credentials, tls);
    }

    private static Duration positive(Duration d, String name) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, was " + d);
      }
      return d;
    }
  }
}
