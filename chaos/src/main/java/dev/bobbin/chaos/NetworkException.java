package dev.bobbin.chaos;

/** A network namespace, link or rule could not be set up, changed or removed. */
final class NetworkException extends Exception {
  NetworkException(String message) {
    super(message);
  }
}
