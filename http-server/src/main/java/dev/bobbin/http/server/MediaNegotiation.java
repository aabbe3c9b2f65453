package dev.bobbin.http.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaRange;
import org.apache.pekko.http.javadsl.model.MediaType;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.Accept;

/**
 * JSON or XML, as YARN's web services choose: by the request's {@code Accept} header, JSON when it
 * names neither or both alike (YARN lists JSON first). A JSON body is turned into XML whole, never
 * labelled as the other.
 */
public final class MediaNegotiation {
  public static final ContentType.WithCharset XML = MediaTypes.APPLICATION_XML.toContentType(HttpCharsets.UTF_8);

  private MediaNegotiation() {}

  /** Whether the caller would rather have XML than JSON. */
  public static boolean prefersXml(HttpRequest request) {
    Optional<Accept> accept = request.getHeader(Accept.class);
    if (accept.isEmpty()) return false;
    float xml = Math.max(quality(accept.get(), MediaTypes.APPLICATION_XML), quality(accept.get(), MediaTypes.TEXT_XML));
    return xml > quality(accept.get(), MediaTypes.APPLICATION_JSON);
  }

  /** The quality the most specific range that matches {@code type} gives it; 0 when none does. */
  private static float quality(Accept accept, MediaType type) {
    int best = -1;
    float q = 0;
    for (MediaRange range : accept.getMediaRanges()) {
      if (!range.matches(type)) continue;
      int specificity = range instanceof org.apache.pekko.http.scaladsl.model.MediaRange.One ? 2
          : range.mainType().equals("*") ? 0 : 1;
      if (specificity > best) {
        best = specificity;
        q = range.qValue();
      }
    }
    return q;
  }

  public static boolean isXml(ContentType type) {
    MediaType media = type.mediaType();
    return media.subType().equalsIgnoreCase("xml")
        && (media.mainType().equals("application") || media.mainType().equals("text"));
  }

  public static boolean isJson(ContentType type) {
    MediaType media = type.mediaType();
    return media.mainType().equals("application") && media.subType().equalsIgnoreCase("json");
  }

  /**
   * The response as the caller prefers it: a JSON body turned into XML, its root element {@code
   * root}, or the body's one field when {@code root} is null (YARN's root-wrapped bodies).
   */
  public static HttpResponse negotiated(HttpRequest request, HttpResponse response, String root) {
    return negotiated(request, response, root, java.util.Set.of());
  }

  /** The same, objects whose {@code type} is one of {@code xsiTypes} typed as JAXB types them ({@link XmlBodies}). */
  public static HttpResponse negotiated(HttpRequest request, HttpResponse response, String root,
      java.util.Set<String> xsiTypes) {
    if (!prefersXml(request) || !isJson(response.entity().getContentType())
        || !(response.entity() instanceof HttpEntity.Strict strict)) {
      return response;
    }
    JsonNode tree;
    try {
      tree = RequestJson.mapper().readTree(strict.getData().toArray());
    } catch (IOException e) {
      return response;
    }
    if (tree == null || !tree.isObject() || (root == null && tree.size() != 1)) return response;
    try {
      return response.withEntity(XML, root == null ? XmlBodies.write(tree, xsiTypes)
          : XmlBodies.write(root, tree, xsiTypes));
    } catch (IllegalArgumentException e) {
      // A body with no XML form (a field no element can be named after) stays JSON, labelled JSON.
      return response;
    }
  }
}
