package dev.bobbin.core.app;

import dev.bobbin.core.base.Rejection;

/**
 * What a submission under an application id meets. The id must have been issued by this cluster's
 * {@code new-application} to the submitting user and not be used by another submission: an id
 * another user was given, one never given out (the next one a client guesses, or one with another
 * cluster's timestamp) or one already used is refused before anything of the submission is written.
 * The same submission again is a repeat, answered with the application as it is, as YARN answers
 * a retried submission.
 */
public enum SubmitVerdict {
  FRESH,
  REPEATED,
  NOT_ISSUED,
  ISSUED_TO_ANOTHER,
  USED_OTHERWISE;

  /**
   * @param issuedTo the user {@code new-application} gave the id to; null when it gave it to no one
   *     (an application submitted before ids were issued then belongs to its submission's user)
   * @param current the submission made under the id; null while there is none
   * @param offered the submission to judge, validated and placed as it would be written
   */
  static SubmitVerdict of(String issuedTo, Submission current, Submission offered) {
    String owner = issuedTo != null ? issuedTo : current == null ? null : current.user();
    if (owner == null) return NOT_ISSUED;
    if (!owner.equals(offered.user())) return ISSUED_TO_ANOTHER;
    if (current == null) return FRESH;
    // The priority or queue may have changed since: a repeat is the same submission whatever it runs at now,
    // and wherever.
    return current.equals(offered.withPriority(current.priority()).withQueue(current.queue()))
        ? REPEATED : USED_OTHERWISE;
  }

  public boolean admits() {
    return this == FRESH || this == REPEATED;
  }

  /** Why a submission by {@code user} under {@code appId} is refused; only for a verdict that does not admit it. */
  public Rejection rejection(String appId, String user) {
    return switch (this) {
      case NOT_ISSUED -> Rejection.badRequest("Application id " + appId + " was not issued by this cluster; "
          + "get one from POST /ws/v1/cluster/apps/new-application");
      case ISSUED_TO_ANOTHER -> Rejection.accessDenied("Application id " + appId + " was not issued to user " + user
          + "; get one from POST /ws/v1/cluster/apps/new-application");
      case USED_OTHERWISE -> Rejection.badRequest("Application id " + appId + " is used by a different submission; "
          + "get a new one from POST /ws/v1/cluster/apps/new-application");
      case FRESH, REPEATED -> throw new IllegalStateException(this + " admits the submission");
    };
  }
}
