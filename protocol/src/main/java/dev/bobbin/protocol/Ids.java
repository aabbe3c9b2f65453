package dev.bobbin.protocol;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** YARN's identifier formats, for applications, attempts and containers. */
public final class Ids {
  private static final Pattern APP = Pattern.compile("application_(\\d+)_(\\d{4,})");
  private static final Pattern ATTEMPT = Pattern.compile("appattempt_(\\d+)_(\\d{4,})_(\\d{6,})");
  private static final Pattern CONTAINER =
      Pattern.compile("container_(?:e(\\d+)_)?(\\d+)_(\\d{4,})_(\\d{2,})_(\\d{6,})");

  private Ids() {}

  public static String applicationId(long clusterTimestamp, int sequence) {
    return String.format("application_%d_%04d", clusterTimestamp, sequence);
  }

  public static String attemptId(String applicationId, int attempt) {
    Matcher m = match(APP, applicationId, "application id");
    return String.format("appattempt_%s_%s_%06d", m.group(1), m.group(2), attempt);
  }

  public static String containerId(String attemptId, long epoch, long sequence) {
    Matcher m = match(ATTEMPT, attemptId, "application attempt id");
    String prefix = epoch > 0 ? "container_e" + epoch + "_" : "container_";
    return String.format(
        "%s%s_%s_%02d_%06d", prefix, m.group(1), m.group(2), Integer.parseInt(m.group(3)), sequence);
  }

  public static boolean isApplicationId(String s) {
    return s != null && APP.matcher(s).matches();
  }

  public static boolean isContainerId(String s) {
    return s != null && CONTAINER.matcher(s).matches();
  }

  public static String applicationIdOfAttempt(String attemptId) {
    Matcher m = match(ATTEMPT, attemptId, "application attempt id");
    return "application_" + m.group(1) + "_" + m.group(2);
  }

  public static int attemptNumber(String attemptId) {
    return Integer.parseInt(match(ATTEMPT, attemptId, "application attempt id").group(3));
  }

  public static String attemptIdOfContainer(String containerId) {
    Matcher m = match(CONTAINER, containerId, "container id");
    return String.format(
        "appattempt_%s_%s_%06d", m.group(2), m.group(3), Integer.parseInt(m.group(4)));
  }

  public static String applicationIdOfContainer(String containerId) {
    Matcher m = match(CONTAINER, containerId, "container id");
    return "application_" + m.group(2) + "_" + m.group(3);
  }

  private static Matcher match(Pattern p, String s, String what) {
    Matcher m = s == null ? null : p.matcher(s);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("Invalid " + what + ": " + s);
    }
    return m;
  }
}
