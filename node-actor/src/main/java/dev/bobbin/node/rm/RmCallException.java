package dev.bobbin.node.rm;

/**
 * A failed call to an RM member. {@code tryAnotherMember} is true when the member could not be
 * reached or failed on its side (connection error, timeout, 5xx): another member may do better.
 */
public final class RmCallException extends RuntimeException {
  private final boolean tryAnotherMember;

  public RmCallException(String message, boolean tryAnotherMember, Throwable cause) {
    super(message, cause);
    this.tryAnotherMember = tryAnotherMember;
  }

  public boolean tryAnotherMember() {
    return tryAnotherMember;
  }
}
