package dev.bobbin.core.policy;

import dev.bobbin.protocol.CborSerializable;

/**
 * What a leaf queue's entity checks before it admits applications, as the configuration sets it:
 * whether the queue takes submissions at all, and how many applications it may hold at once, in
 * all and of one user (YARN's queue state, {@code maximum-applications} and its per-user share).
 */
public record AdmissionTerms(boolean stopped, int maxApplications, int maxApplicationsPerUser)
    implements CborSerializable {
  /** Running, and no limit on how many applications it holds. */
  public static final AdmissionTerms OPEN = new AdmissionTerms(false, Integer.MAX_VALUE, Integer.MAX_VALUE);

  public AdmissionTerms {
    if (maxApplications < 0) throw new IllegalArgumentException("maxApplications must not be negative");
    if (maxApplicationsPerUser < 0) throw new IllegalArgumentException("maxApplicationsPerUser must not be negative");
  }

  /** No limit per user. */
  public AdmissionTerms(boolean stopped, int maxApplications) {
    this(stopped, maxApplications, Integer.MAX_VALUE);
  }
}
