package dev.bobbin.am;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** JSON for the AM's HTTP clients: the shared wire mapper, tolerant of Hadoop's one-element lists. */
final class WireCodec {
  private static final ObjectMapper MAPPER =
      WireJson.mapper().copy().enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);

  private WireCodec() {}

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot encode " + value.getClass().getSimpleName(), e);
    }
  }

  static <T> T read(byte[] body, Class<T> type) throws IOException {
    return MAPPER.readValue(body, type);
  }

  /** The RemoteException in an error body, if it is one. */
  static Optional<RemoteException.Body> remoteException(byte[] body) {
    try {
      RemoteException e = MAPPER.readValue(body, RemoteException.class);
      return Optional.ofNullable(e.body()).filter(b -> b.exception() != null);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The start of a non-JSON body, for a diagnostic. */
  static String excerpt(byte[] body) {
    String s = new String(body, StandardCharsets.UTF_8).strip();
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
