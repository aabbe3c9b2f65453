package dev.bobbin.core.app;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * The checks a submission passes before anything is written, and the defaults it gets. Which queue
 * it goes to is the scheduler's placement decision.
 */
public final class SubmissionRules {
  private SubmissionRules() {}

  /** @throws Rejection naming the problem */
  public static Submission validate(Submission s, SchedulerSettings scheduler, int amMaxAttempts) {
    if (s.appId() == null || s.appId().isBlank()) {
      throw Rejection.badRequest("application-id is required; get one from POST /ws/v1/cluster/apps/new-application");
    }
    if (!Ids.isApplicationId(s.appId())) throw Rejection.badRequest("Could not parse application id " + s.appId());
    String queue = normalizeQueue(s.queue());
    Resource r = s.amResource() == null ? Resource.NONE : s.amResource();
    if (r.memory() < 0 || r.vCores() < 0) {
      throw Rejection.invalidResource("Invalid resource request, requested resource " + r + " is negative");
    }
    if (r.memory() > scheduler.maximumAllocationMb()) {
      throw Rejection.invalidResource("Invalid resource request, requested memory " + r.memory()
          + " MB is above the maximum allocation of " + scheduler.maximumAllocationMb() + " MB");
    }
    if (r.vCores() > scheduler.maximumAllocationVcores()) {
      throw Rejection.invalidResource("Invalid resource request, requested virtual cores " + r.vCores()
          + " are above the maximum allocation of " + scheduler.maximumAllocationVcores());
    }
    if (s.amLaunch() == null || s.amLaunch().commands().isEmpty()) {
      throw Rejection.badRequest("am-container-spec must have at least one command");
    }
    Resource am = new Resource(Math.max(r.memory(), scheduler.minimumAllocationMb()),
        Math.max(r.vCores(), scheduler.minimumAllocationVcores()));
    int attempts = s.maxAttempts() <= 0 ? amMaxAttempts : Math.min(s.maxAttempts(), amMaxAttempts);
    String type = s.applicationType() == null || s.applicationType().isBlank() ? "YARN" : s.applicationType();
    if (type.length() > 20) type = type.substring(0, 20);
    String user = s.user() == null || s.user().isBlank() ? "dr.who" : s.user();
    return new Submission(s.appId(), s.name() == null ? "" : s.name(), user, queue, Math.max(0, s.priority()),
        type, s.tags() == null ? List.of() : s.tags(), am, s.amLaunch(), attempts, s.acls());
  }

  /** Queues may be named with or without the {@code root.} prefix; no name means {@code default}. */
  public static String normalizeQueue(String queue) {
    return QueuePath.requested(queue).relative();
  }
}
