package dev.bobbin.protocol.client;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * JSON as the clients read it: the shared wire mapper, tolerant of Hadoop's JSON, which writes a
 * one-element list as the element itself and an empty list as null.
 */
public final class ClientJson {
  private static final ObjectMapper MAPPER =
      WireJson.mapper().copy().enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);

  private ClientJson() {}

  public static <T> T read(byte[] body, Class<T> type) throws IOException {
    return MAPPER.readValue(body, type);
  }

  public static <T> T convert(JsonNode node, Class<T> type) throws IOException {
    return MAPPER.treeToValue(node, type);
  }

  /** The entity in {@code {"<key>":{...}}} of a reply, or the root itself when a server does not wrap it. */
  static <T> T entity(Reply reply, String key, Class<T> type) {
    JsonNode root = reply.as(JsonNode.class);
    JsonNode inner = root.path(key);
    return convert(reply, inner.isObject() ? inner : root, type);
  }

  /** The elements of {@code {"<collection>":{"<element>":[...]}}} in a reply; Hadoop writes one as an object, none as null. */
  static <T> List<T> elements(Reply reply, String collection, String element, Class<T> type) {
    JsonNode items = reply.as(JsonNode.class).path(collection).path(element);
    List<T> out = new ArrayList<>();
    if (items.isArray()) {
      for (JsonNode item : items) out.add(convert(reply, item, type));
    } else if (items.isObject()) {
      out.add(convert(reply, items, type));
    }
    return out;
  }

  /** A part of a reply's body as {@code type}; {@link UnreadableReplyException} when it is not one. */
  static <T> T convert(Reply reply, JsonNode node, Class<T> type) {
    try {
      return convert(node, type);
    } catch (IOException | RuntimeException e) {
      throw new UnreadableReplyException(reply.url(), reply.status(), type, e, reply.body());
    }
  }

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot encode " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /** The RemoteException in an error body, if it is one. */
  static Optional<RemoteException.Body> remoteException(byte[] body) {
    try {
      RemoteException e = MAPPER.readValue(body, RemoteException.class);
      return Optional.ofNullable(e.body()).filter(b -> b.exception() != null || b.javaClassName() != null);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The start of a body that is not what was expected, for a diagnostic. */
  static String excerpt(byte[] body) {
    String s = new String(body, StandardCharsets.UTF_8).strip();
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}
