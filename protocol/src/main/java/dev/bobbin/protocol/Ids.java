package dev.bobbin.protocol;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * YARN's identifier formats, for applications, attempts, containers and nodes. An id is valid only
 * when each of its numbers fits the type YARN gives it (the cluster timestamp a long, the
 * application's sequence and the attempt's number an int, the container's sequence and epoch a
 * long), as YARN's own parsers require.
 */
public final class Ids {
  private static final Pattern APP = Pattern.compile("application_(\\d{1,19})_(\\d{4,10})");
  private static final Pattern ATTEMPT = Pattern.compile("appattempt_(\\d{1,19})_(\\d{4,10})_(\\d{6,10})");
  private static final Pattern CONTAINER =
      Pattern.compile("container_(?:e(\\d{1,19})_)?(\\d{1,19})_(\\d{4,10})_(\\d{2,10})_(\\d{6,19})");
  /** host:port, as YARN's {@code NodeId}: a host name or address of up to 255 characters. */
  private static final Pattern NODE = Pattern.compile("([A-Za-z0-9._\\-\\[\\]:]{1,255}):(\\d{1,5})");

  private Ids() {}

  public static String applicationId(long clusterTimestamp, int sequence) {
    return padded(new StringBuilder("application_").append(clusterTimestamp).append('_'), sequence, 4)
        .toString();
  }

  public static String attemptId(String applicationId, int attempt) {
    Matcher m = match(APP, applicationId, "application id");
    return attemptId(m.group(1), m.group(2), attempt);
  }

  public static String containerId(String attemptId, long epoch, long sequence) {
    Matcher m = match(ATTEMPT, attemptId, "application attempt id");
    StringBuilder id = new StringBuilder(64).append("container_");
    if (epoch > 0) id.append('e').append(epoch).append('_');
    id.append(m.group(1)).append('_').append(m.group(2)).append('_');
    padded(id, Integer.parseInt(m.group(3)), 2).append('_');
    return padded(id, sequence, 6).toString();
  }

  public static boolean isApplicationId(String s) {
    Matcher m = s == null ? null : APP.matcher(s);
    return m != null && m.matches() && isLong(m.group(1)) && isInt(m.group(2));
  }

  public static boolean isAttemptId(String s) {
    Matcher m = s == null ? null : ATTEMPT.matcher(s);
    return m != null && m.matches() && isLong(m.group(1)) && isInt(m.group(2)) && isInt(m.group(3));
  }

  public static boolean isContainerId(String s) {
    Matcher m = s == null ? null : CONTAINER.matcher(s);
    return m != null && m.matches() && (m.group(1) == null || isLong(m.group(1))) && isLong(m.group(2))
        && isInt(m.group(3)) && isInt(m.group(4)) && isLong(m.group(5));
  }

  /** {@code host:port} with a port from 0 to 65535. */
  public static boolean isNodeId(String s) {
    Matcher m = s == null ? null : NODE.matcher(s);
    return m != null && m.matches() && Integer.parseInt(m.group(2)) <= 65535;
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
    return attemptId(m.group(2), m.group(3), Integer.parseInt(m.group(4)));
  }

  public static String applicationIdOfContainer(String containerId) {
    Matcher m = match(CONTAINER, containerId, "container id");
    return "application_" + m.group(2) + "_" + m.group(3);
  }

  private static String attemptId(String clusterTimestamp, String appSequence, int attempt) {
    StringBuilder id = new StringBuilder("appattempt_").append(clusterTimestamp).append('_')
        .append(appSequence).append('_');
    return padded(id, attempt, 6).toString();
  }

  /**
   * Appends {@code n} as {@code %0<width>d} would: every allocation makes a container id, and
   * {@code String.format} costs enough per call to show in the profile of a busy RM.
   */
  private static StringBuilder padded(StringBuilder to, long n, int width) {
    if (n < 0) return to.append(String.format("%0" + width + "d", n));
    String digits = Long.toString(n);
    for (int i = digits.length(); i < width; i++) to.append('0');
    return to.append(digits);
  }

  private static boolean isLong(String digits) {
    return digits.length() < 19 || digits.compareTo(Long.toString(Long.MAX_VALUE)) <= 0;
  }

  private static boolean isInt(String digits) {
    return digits.length() < 10 || (digits.length() == 10 && digits.compareTo(Integer.toString(Integer.MAX_VALUE)) <= 0);
  }

  private static Matcher match(Pattern p, String s, String what) {
    Matcher m = s == null ? null : p.matcher(s);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("Invalid " + what + ": " + s);
    }
    return m;
  }
}
