package dev.bobbin.protocol.client;

import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.FinishAmRequest;
import dev.bobbin.protocol.am.FinishAmResponse;
import dev.bobbin.protocol.am.RegisterAmRequest;
import dev.bobbin.protocol.am.RegisterAmResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An ApplicationMaster's calls to an RM member (YARN's ApplicationMasterProtocol): register,
 * allocate and finish, each to the member the caller chose. Every call carries the attempt's AM
 * token; when an allocate response hands over a new one (the RM rolled its key, or a new scheduler
 * took over), the calls after it carry that one, as YARN's AMRMClient does. Stages fail with a
 * {@link CallException}.
 */
public final class AmProtocolClient {
  private final BobbinHttp http;
  private final AtomicReference<String> amToken;

  /** @param http the transport; its credentials are replaced by the AM token */
  public AmProtocolClient(BobbinHttp http, String amToken) {
    if (amToken == null || amToken.isBlank()) throw new IllegalArgumentException("The AM token is missing");
    this.amToken = new AtomicReference<>(amToken);
    this.http = http.withCredentials(request -> Credentials.amToken(this.amToken.get()).authenticate(request));
  }

  public static AmProtocolClient create(String amToken, Duration connectTimeout, Duration requestTimeout) {
    return create(amToken, connectTimeout, requestTimeout, TlsSettings.system());
  }

  public static AmProtocolClient create(
      String amToken, Duration connectTimeout, Duration requestTimeout, TlsSettings tls) {
    return new AmProtocolClient(
        BobbinHttp.builder().connectTimeout(connectTimeout).requestTimeout(requestTimeout).tls(tls).build(), amToken);
  }

  /** The AM token the next call carries. */
  public String amToken() {
    return amToken.get();
  }

  public CompletableFuture<RegisterAmResponse> register(String rmUrl, RegisterAmRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.AM_REGISTER, request), RegisterAmResponse.class);
  }

  public CompletableFuture<AllocateResponse> allocate(String rmUrl, AllocateRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.AM_ALLOCATE, request), AllocateResponse.class)
        .thenApply(response -> {
          if (response.amRmToken() != null && !response.amRmToken().isBlank()) amToken.set(response.amRmToken());
          return response;
        });
  }

  public CompletableFuture<FinishAmResponse> finish(String rmUrl, FinishAmRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.AM_FINISH, request), FinishAmResponse.class);
  }
}
