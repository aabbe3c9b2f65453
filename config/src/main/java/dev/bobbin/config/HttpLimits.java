package dev.bobbin.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;

/**
 * The {@code bobbin.http} limits every HTTP server of Bobbin (an RM member's, a NodeManager's)
 * applies to the requests it reads.
 *
 * @param maxRequestBody the largest request body in bytes; a larger one is refused with 413 unread
 */
public record HttpLimits(long maxRequestBody) {
  static final String MAX_REQUEST_BODY = "bobbin.http.max-request-body";
  /** Below this, a NodeManager's heartbeat with a few hundred containers would not fit. */
  static final long MIN_REQUEST_BODY = 64 * 1024;
  /** A body is read into one array before it is parsed. */
  static final long MAX_REQUEST_BODY_LIMIT = Integer.MAX_VALUE;

  public static HttpLimits from(Config root) {
    long max;
    try {
      max = root.getBytes(MAX_REQUEST_BODY);
    } catch (ConfigException e) {
      throw new SettingsException(MAX_REQUEST_BODY, e.getMessage());
    }
    if (max < MIN_REQUEST_BODY || max > MAX_REQUEST_BODY_LIMIT) {
      throw new SettingsException(MAX_REQUEST_BODY, "must be between 64k and 2047m (" + MIN_REQUEST_BODY + " and "
          + MAX_REQUEST_BODY_LIMIT + " bytes), was " + max + " bytes");
    }
    return new HttpLimits(max);
  }
}
