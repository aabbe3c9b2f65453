package dev.bobbin.config;

/** Which of HTTP and HTTPS a server speaks, with YARN's names ({@code yarn.http.policy}). */
public enum HttpPolicy {
  /** Plain HTTP on the HTTP port. */
  HTTP_ONLY,
  /** TLS on the HTTP port, and clients never speak plain HTTP. */
  HTTPS_ONLY,
  /** Plain HTTP on the HTTP port and TLS on the HTTPS port. */
  HTTP_AND_HTTPS;

  public boolean servesHttps() {
    return this != HTTP_ONLY;
  }
}
