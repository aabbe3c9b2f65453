package dev.bobbin.protocol.tls;

/** A key or trust store that cannot be used; the message names the file. */
public final class TlsStoreException extends RuntimeException {
  public TlsStoreException(String message) {
    super(message);
  }

  public TlsStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
