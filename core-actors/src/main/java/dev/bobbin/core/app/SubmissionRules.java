package dev.bobbin.core.app;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.policy.ApplicationPriorities;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks a submission passes before anything is written, and the defaults it gets. Which queue
 * it goes to is the scheduler's placement decision.
 */
public final class SubmissionRules {
  /** YARN's {@code YarnConfiguration.APPLICATION_MAX_TAGS} and {@code APPLICATION_MAX_TAG_LENGTH}. */
  public static final int MAX_TAGS = 10;
  public static final int MAX_TAG_LENGTH = 100;
  /** YARN's {@code ApplicationSubmissionContext} keeps 20 characters of a type (and drops the rest). */
  public static final int MAX_TYPE_LENGTH = 20;
  /** YARN sets no bound on these; every application list carries them, so Bobbin does. */
  public static final int MAX_NAME_LENGTH = 1024;
  public static final int MAX_QUEUE_LENGTH = 1024;
  /** How much of a refused value a message repeats. */
  private static final int SHOWN = 100;

  private SubmissionRules() {}

  /** @throws Rejection naming the problem */
  public static Submission validate(Submission s, SchedulerSettings scheduler, int amMaxAttempts) {
    if (s.appId() == null || s.appId().isBlank()) {
      throw Rejection.badRequest("application-id is required; get one from POST /ws/v1/cluster/apps/new-application");
    }
    if (!Ids.isApplicationId(s.appId())) throw Rejection.badRequest("Could not parse application id " + shown(s.appId()));
    atMost("application-name", s.name(), MAX_NAME_LENGTH);
    atMost("application-type", s.applicationType(), MAX_TYPE_LENGTH);
    atMost("queue", s.queue(), MAX_QUEUE_LENGTH);
    List<String> tags = tags(s.tags());
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
    // An unmanaged AM is run by its client: there is no AM container to give commands to.
    if (!s.unmanagedAm() && (s.amLaunch() == null || s.amLaunch().commands().isEmpty())) {
      throw Rejection.badRequest("am-container-spec must have at least one command");
    }
    Resource am = new Resource(Math.max(r.memory(), scheduler.minimumAllocationMb()),
        Math.max(r.vCores(), scheduler.minimumAllocationVcores()));
    int attempts = s.maxAttempts() <= 0 ? amMaxAttempts : Math.min(s.maxAttempts(), amMaxAttempts);
    String type = s.applicationType() == null || s.applicationType().isBlank() ? "YARN" : s.applicationType();
    String user = s.user() == null || s.user().isBlank() ? "dr.who" : s.user();
    int priority = Math.max(ApplicationPriorities.NONE_ASKED, s.priority());
    return new Submission(s.appId(), s.name() == null ? "" : s.name(), user, queue, priority, type, tags, am,
        s.amLaunch(), attempts, s.acls(), s.keepContainers())
        .withAttemptFailuresValidityInterval(s.attemptFailuresValidityInterval()).withLifetime(s.lifetime())
        .withUnmanagedAm(s.unmanagedAm());
  }

  /** As YARN's {@code ApplicationSubmissionContext.setApplicationTags}: a set of at most 10 ASCII tags of 100. */
  private static List<String> tags(List<String> given) {
    if (given == null) return List.of();
    Set<String> tags = new LinkedHashSet<>(given);
    if (tags.size() > MAX_TAGS) {
      throw Rejection.badRequest("application-tags: at most " + MAX_TAGS + " tags are allowed, there were " + tags.size());
    }
    for (String tag : tags) {
      atMost("application-tags: a tag", tag, MAX_TAG_LENGTH);
      if (tag.isEmpty() || !tag.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
        throw Rejection.badRequest("application-tags: tag '" + shown(tag) + "' is empty or has characters other than "
            + "printable ASCII");
      }
    }
    return new ArrayList<>(tags);
  }

  private static void atMost(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw Rejection.badRequest(field + " may have at most " + max + " characters, it had " + value.length() + ": '"
          + shown(value) + "'");
    }
  }

  /** A value as a message repeats it: a long one cut short, so that a refusal stays small. */
  private static String shown(String value) {
    return value.length() <= SHOWN ? value : value.substring(0, SHOWN) + "...";
  }

  /** Queues may be named with or without the {@code root.} prefix; no name means {@code default}. */
  public static String normalizeQueue(String queue) {
    return QueuePath.requested(queue).relative();
  }
}
