package dev.bobbin.core.policy;

import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Since when (epoch millis) each application has been below its fair-share threshold and each leaf
 * queue below its min share. An entry exists only while the condition holds; the first pass in which
 * it no longer holds drops it, which is what restarts the timeout. The scheduler actor keeps the value
 * from one {@link StarvationDetector#detect} call to the next.
 */
public record StarvationClocks(Map<String, Long> appsBelowSince, Map<String, Long> queuesBelowSince) {
  public static final StarvationClocks EMPTY = new StarvationClocks(Map.of(), Map.of());

  public StarvationClocks {
    appsBelowSince = Collections.unmodifiableMap(new TreeMap<>(appsBelowSince));
    queuesBelowSince = Collections.unmodifiableMap(new TreeMap<>(queuesBelowSince));
  }

  public OptionalLong appBelowSince(String appId) {
    Long since = appsBelowSince.get(appId);
    return since == null ? OptionalLong.empty() : OptionalLong.of(since);
  }

  public OptionalLong queueBelowSince(String queuePath) {
    Long since = queuesBelowSince.get(queuePath);
    return since == null ? OptionalLong.empty() : OptionalLong.of(since);
  }
}
