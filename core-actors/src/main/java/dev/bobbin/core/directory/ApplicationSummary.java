package dev.bobbin.core.directory;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.Attempt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per finished application to its own logger, as Hadoop's {@code RMAppManager$ApplicationSummary}:
 * comma-separated {@code key=value} pairs, commas, equals signs and backslashes in values escaped
 * with a backslash and line breaks written as {@code \n}, so that each application is one line a
 * script can split. The RM's logging configuration sends this logger to a file of its own.
 */
final class ApplicationSummary {
  static final Logger LOG = LoggerFactory.getLogger(ApplicationSummary.class);

  private ApplicationSummary() {}

  static void log(AppReport r) {
    if (LOG.isInfoEnabled()) LOG.info(line(r));
  }

  static String line(AppReport r) {
    Attempt last = r.currentAttempt();
    var p = r.preemptions();
    StringBuilder b = new StringBuilder();
    add(b, "appId", r.id());
    add(b, "name", r.name());
    add(b, "user", r.user());
    add(b, "queue", r.queue());
    add(b, "state", r.state().name());
    add(b, "trackingUrl", last == null ? "" : last.trackingUrl());
    add(b, "appMasterHost", last == null ? "" : last.amHost());
    add(b, "submitTime", r.startedTime());
    add(b, "startTime", r.startedTime());
    add(b, "launchTime", last == null ? 0 : last.startTime());
    add(b, "finishTime", r.finishedTime());
    add(b, "finalStatus", r.finalStatus().name());
    add(b, "preemptedAMContainers", p.amContainersPreempted());
    add(b, "preemptedNonAMContainers", p.nonAmContainersPreempted());
    add(b, "preemptedResources", "<memory:" + p.preemptedResource().memory() + ", vCores:"
        + p.preemptedResource().vCores() + ">");
    add(b, "applicationType", r.applicationType());
    add(b, "applicationTags", String.join(",", r.tags()));
    add(b, "attempts", r.currentAttempt() == null ? 0 : r.currentAttempt().number());
    add(b, "attemptFailuresCounted", r.attemptFailuresCounted(r.finishedTime()));
    add(b, "diagnostics", r.diagnostics());
    return b.toString();
  }

  private static void add(StringBuilder b, String key, Object value) {
    if (b.length() > 0) b.append(',');
    b.append(key).append('=').append(escape(String.valueOf(value)));
  }

  private static String escape(String v) {
    StringBuilder out = new StringBuilder(v.length());
    for (char c : v.toCharArray()) {
      switch (c) {
        case ',', '=', '\\' -> out.append('\\').append(c);
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
