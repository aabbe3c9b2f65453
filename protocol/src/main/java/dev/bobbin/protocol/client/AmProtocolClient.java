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

/**
 * An ApplicationMaster's calls to an RM member (YARN's ApplicationMasterProtocol): register,
 * allocate and finish, each to the member the caller chose. The attempt is the one of the AM token
 * that the transport's credentials carry. Stages fail with a {@link CallException}.
 */
public final class AmProtocolClient {
  private final BobbinHttp http;

  /** @param http a transport whose credentials carry the AM token ({@link Credentials#amToken}) */
  public AmProtocolClient(BobbinHttp http) {
    this.http = http;
  }

  public static AmProtocolClient create(String amToken, Duration connectTimeout, Duration requestTimeout) {
    return create(amToken, connectTimeout, requestTimeout, TlsSettings.system());
  }

  public static AmProtocolClient create(
      String amToken, Duration connectTimeout, Duration requestTimeout, TlsSettings tls) {
    return new AmProtocolClient(BobbinHttp.builder()
        .connectTimeout(connectTimeout)
        .requestTimeout(requestTimeout)
        .tls(tls)
        .credentials(Credentials.amToken(amToken))
        .build());
  }

  public CompletableFuture<RegisterAmResponse> register(String rmUrl, RegisterAmRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.AM_REGISTER, request), RegisterAmResponse.class);
  }

  public CompletableFuture<AllocateResponse> allocate(String rmUrl, AllocateRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.AM_ALLOCATE, request), AllocateResponse.class);
  }

  public CompletableFuture<FinishAmResponse> finish(String rmUrl, FinishAmRequest request) {
    return http.call(Call.post(rmUrl, WirePaths.AM_FINISH, request), FinishAmResponse.class);
  }
}
