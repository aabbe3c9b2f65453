package dev.bobbin.core.keys;

import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/** The keys a scheduler signs its tokens with, as its member holds them. */
public interface SigningKeys {
  /**
   * Records a new scheduler incarnation, whose epoch its AM tokens carry; completes once there are
   * keys to sign with.
   */
  CompletionStage<Done> schedulerStarted(long epoch);

  /** The key that signs tokens of {@code purpose} at {@code nowMs}; only after {@link #schedulerStarted}. */
  SigningKey signing(KeyPurpose purpose, long nowMs);

  /** A key ready to sign with. */
  record SigningKey(int id, byte[] secret) {}

  /**
   * Keys that never roll, for a scheduler that runs without a cluster (tests, the scheduler
   * benchmark): container tokens signed as key 1, AM tokens as key 2.
   */
  static SigningKeys fixed(byte[] containerSecret, byte[] amSecret) {
    SigningKey container = new SigningKey(1, containerSecret.clone());
    SigningKey am = new SigningKey(2, amSecret.clone());
    return new SigningKeys() {
      @Override
      public CompletionStage<Done> schedulerStarted(long epoch) {
        return java.util.concurrent.CompletableFuture.completedFuture(Done.getInstance());
      }

      @Override
      public SigningKey signing(KeyPurpose purpose, long nowMs) {
        return purpose == KeyPurpose.CONTAINER_TOKEN ? container : am;
      }
    };
  }
}
