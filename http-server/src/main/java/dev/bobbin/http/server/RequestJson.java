package dev.bobbin.http.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.bobbin.protocol.WireJson;

/**
 * The JSON reader of request bodies: Bobbin's wire mapper, made strict about what a client sends.
 * A number must fit its field's type and be whole where the field is ({@code 4294967297} is no
 * {@code int}, {@code 1.9} no memory size), a number or a boolean must not come as a string, an
 * enum not as its ordinal; and nesting, numbers and field names have bounds no request of Bobbin's
 * protocols or YARN's REST API comes near. Each is a parse error, which the routes answer with 400.
 */
public final class RequestJson {
  /** A submission, the deepest request, nests 5 levels. */
  static final int MAX_NESTING = 32;
  /** Digits of one number: a long has 19. */
  static final int MAX_NUMBER_LENGTH = 64;
  static final int MAX_NAME_LENGTH = 1024;

  private static final ObjectMapper MAPPER = strict();
  /** A reader per type, made once: resolving the type on every call costs a heartbeat's CPU. */
  private static final ClassValue<ObjectReader> READERS = new ClassValue<>() {
    @Override
    protected ObjectReader computeValue(Class<?> type) {
      return MAPPER.readerFor(type);
    }
  };

  private RequestJson() {}

  /** Shared and thread-safe, for reading only; callers must not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static ObjectReader reader(Class<?> type) {
    return READERS.get(type);
  }

  private static ObjectMapper strict() {
    JsonFactory factory = JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
        .maxNestingDepth(MAX_NESTING).maxNumberLength(MAX_NUMBER_LENGTH).maxNameLength(MAX_NAME_LENGTH).build())
        .build();
    ObjectMapper m = WireJson.mapper().copyWith(factory)
        .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
        .configure(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS, true);
    for (LogicalType t : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
      m.coercionConfigFor(t).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
    }
    m.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    return m;
  }
}
