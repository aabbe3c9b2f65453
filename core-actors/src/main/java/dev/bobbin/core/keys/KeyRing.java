package dev.bobbin.core.keys;

import dev.bobbin.protocol.CborSerializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Every key the cluster signs tokens with, of every purpose, the epoch of the newest scheduler,
 * whose AM tokens are the current ones, and the cluster's identity. Immutable: the keys' entity
 * holds it as its state, members hold copies. {@code version} counts the changes, so that a member
 * keeps the newest copy it heard.
 *
 * @param clusterId made once with the cluster's journal, so that a NodeManager can tell a cluster
 *     that replaced the one it followed (whose epochs start again) from an older scheduler of its
 *     own; "" until it is made (and in rings journalled before it existed)
 */
public record KeyRing(List<MasterKey> keys, int lastKeyId, long schedulerEpoch, long version, String clusterId)
    implements CborSerializable {
  public static final KeyRing EMPTY = new KeyRing(List.of(), 0, 0, 0, "");

  public KeyRing {
    keys = keys.stream().sorted(Comparator.comparingInt(MasterKey::id)).toList();
    clusterId = clusterId == null ? "" : clusterId;
  }

  /** What a roll does: keys made (with their ids) and keys retired. */
  public record Roll(List<MasterKey> made, List<Integer> retired) {
    public boolean isEmpty() {
      return made.isEmpty() && retired.isEmpty();
    }
  }

  /**
   * What is due at {@code now}: a first key for a purpose that has none (signing at once); the next
   * key of a purpose whose newest key has been signing for its rolling interval less the activation
   * delay (signing one interval after it, and never sooner than the delay from now); and the
   * retirement of every key whose successor has been signing for the overlap.
   *
   * @param secrets makes the secret of each new key
   */
  public Roll due(long now, Map<KeyPurpose, KeySchedule> schedules, Supplier<String> secrets) {
    List<MasterKey> made = new ArrayList<>();
    List<Integer> retired = new ArrayList<>();
    int nextId = lastKeyId;
    for (KeyPurpose purpose : KeyPurpose.values()) {
      KeySchedule s = schedules.get(purpose);
      List<MasterKey> mine = of(purpose);
      if (mine.isEmpty()) {
        made.add(new MasterKey(++nextId, purpose, secrets.get(), now));
        continue;
      }
      MasterKey newest = mine.get(mine.size() - 1);
      long rollAt = newest.activatesAtMs() + s.rollingInterval().toMillis();
      if (now >= rollAt - s.activationDelay().toMillis()) {
        made.add(new MasterKey(++nextId, purpose, secrets.get(),
            Math.max(rollAt, now + s.activationDelay().toMillis())));
      }
      for (MasterKey k : mine) {
        long retires = retiresAt(k, s);
        if (retires != 0 && retires <= now) retired.add(k.id());
      }
    }
    return new Roll(List.copyOf(made), List.copyOf(retired));
  }

  public KeyRing withKey(MasterKey key) {
    List<MasterKey> all = new ArrayList<>(keys);
    all.add(key);
    return new KeyRing(all, Math.max(lastKeyId, key.id()), schedulerEpoch, version + 1, clusterId);
  }

  public KeyRing withoutKey(int keyId) {
    return new KeyRing(keys.stream().filter(k -> k.id() != keyId).toList(), lastKeyId, schedulerEpoch, version + 1,
        clusterId);
  }

  public KeyRing atEpoch(long epoch) {
    return new KeyRing(keys, lastKeyId, Math.max(schedulerEpoch, epoch), version + 1, clusterId);
  }

  public KeyRing named(String id) {
    return new KeyRing(keys, lastKeyId, schedulerEpoch, version + 1, id);
  }

  /** The keys of one purpose, oldest first. */
  public List<MasterKey> of(KeyPurpose purpose) {
    return keys.stream().filter(k -> k.purpose() == purpose).toList();
  }

  /** The key that signs at {@code now}: the newest that has started signing (the oldest before any has). */
  public Optional<MasterKey> signing(KeyPurpose purpose, long now) {
    List<MasterKey> mine = of(purpose);
    MasterKey chosen = null;
    for (MasterKey k : mine) {
      if (k.activatesAtMs() <= now) chosen = k;
    }
    return Optional.ofNullable(chosen != null ? chosen : mine.isEmpty() ? null : mine.get(0));
  }

  /** When {@code key} stops verifying: its successor's activation plus the overlap; 0 while it has none. */
  public long retiresAt(MasterKey key, KeySchedule schedule) {
    for (MasterKey k : keys) {
      if (k.purpose() == key.purpose() && k.id() > key.id()) return k.activatesAtMs() + schedule.overlap().toMillis();
    }
    return 0;
  }

  /** Whether a token signed with {@code key} may be accepted at {@code now}. */
  public boolean verifies(MasterKey key, long now, KeySchedule schedule) {
    long retires = retiresAt(key, schedule);
    return retires == 0 || now < retires;
  }
}
