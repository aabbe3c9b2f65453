package dev.bobbin.core.keys;

import dev.bobbin.protocol.CborSerializable;

/**
 * One key: its id (unique across purposes, and what tokens name), what it signs, the secret
 * (base64url) and from when it signs. It verifies from when it is made until its successor has
 * been active for the purpose's overlap ({@link KeySchedule}).
 */
public record MasterKey(int id, KeyPurpose purpose, String secret, long activatesAtMs) implements CborSerializable {
  @Override
  public String toString() {
    // The secret stays out of logs.
    return purpose + " key " + id + " (signs from " + java.time.Instant.ofEpochMilli(activatesAtMs) + ")";
  }
}
