package dev.bobbin.chaos;

/** Sleeps that end the caller's loop when the thread is interrupted. */
final class Sleep {
  private Sleep() {}

  /** @return false when interrupted (the flag stays set) */
  static boolean millis(long ms) {
    try {
      Thread.sleep(Math.max(0, ms));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
