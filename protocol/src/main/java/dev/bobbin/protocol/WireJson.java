package dev.bobbin.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;

/** The JSON mapper every HTTP endpoint and client of Bobbin uses. */
public final class WireJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .registerModule(new Jdk8Module())
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
          .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false)
          .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);

  private WireJson() {}

  /** Shared, thread-safe mapper; callers must not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }
}
