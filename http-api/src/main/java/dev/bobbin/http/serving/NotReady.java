package dev.bobbin.http.serving;

import java.util.List;

/**
 * Why a health check of this member failed: every reason, and the Hadoop exception a refused caller
 * is told ({@code StandbyException} when another member can serve, {@code RetriableException} when
 * this one will soon).
 */
public final class NotReady extends RuntimeException {
  private final String exception;

  NotReady(String exception, List<String> reasons) {
    super(String.join("; ", reasons), null, false, false);
    this.exception = exception;
  }

  String exception() {
    return exception;
  }
}
