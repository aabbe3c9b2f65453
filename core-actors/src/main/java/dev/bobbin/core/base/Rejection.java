package dev.bobbin.core.base;

/**
 * A request refused before anything changed, with the Hadoop exception a YARN client expects and
 * the HTTP status that goes with it.
 */
public final class Rejection extends RuntimeException {
  public static final String BAD_REQUEST = "org.apache.hadoop.yarn.webapp.BadRequestException";
  public static final String NOT_FOUND = "org.apache.hadoop.yarn.webapp.NotFoundException";
  public static final String INVALID_RESOURCE =
      "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException";
  public static final String ACCESS_CONTROL = "org.apache.hadoop.security.AccessControlException";

  private final int status;
  private final String javaClassName;

  public Rejection(int status, String javaClassName, String message) {
    super(message);
    this.status = status;
    this.javaClassName = javaClassName;
  }

  public static Rejection badRequest(String message) {
    return new Rejection(400, BAD_REQUEST, message);
  }

  public static Rejection notFound(String message) {
    return new Rejection(404, NOT_FOUND, message);
  }

  /** The caller is known and lacks the right: 403, as YARN answers an ACL refusal. */
  public static Rejection accessDenied(String message) {
    return new Rejection(403, ACCESS_CONTROL, message);
  }

  public static Rejection invalidResource(String message) {
    return new Rejection(400, INVALID_RESOURCE, message);
  }

  public int status() {
    return status;
  }

  public String javaClassName() {
    return javaClassName;
  }
}
