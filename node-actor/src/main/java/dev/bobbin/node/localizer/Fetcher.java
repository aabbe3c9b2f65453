package dev.bobbin.node.localizer;

import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.OptionalLong;

/**
 * Copies a resource's source to a local file, verifying it is what was submitted. An HTTP source
 * is served to anyone who asks, the node included, so it may be PUBLIC; a file only when others
 * may read it ({@link SourceCheck#requirePublic}).
 */
final class Fetcher {
  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(30)).followRedirects(HttpClient.Redirect.NORMAL).build();

  void fetch(LocalResource r, Path to, long now) throws IOException {
    URI uri = URI.create(r.resource());
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
    switch (scheme) {
      case "file" -> fromFile(r, Path.of(uri), to, now);
      case "http", "https" -> fromHttp(r, uri, to, now);
      default -> throw new IOException("unsupported source scheme '" + scheme + "' (file, http and https are)");
    }
  }

  private static void fromFile(LocalResource r, Path src, Path to, long now) throws IOException {
    BasicFileAttributes a = Files.readAttributes(src, BasicFileAttributes.class);
    if (!a.isRegularFile()) throw new IOException(src + " is not a regular file");
    if (r.visibility() == LocalResource.Visibility.PUBLIC) SourceCheck.requirePublic(r, src);
    SourceCheck.verify(r, a.size(), a.lastModifiedTime().toMillis(), false, now);
    Files.copy(src, to, StandardCopyOption.REPLACE_EXISTING);
    SourceCheck.verify(r, Files.size(to), a.lastModifiedTime().toMillis(), false, now);
  }

  private void fromHttp(LocalResource r, URI uri, Path to, long now) throws IOException {
    // A body of another length than submitted is refused unread, rather than written to disk first.
    HttpResponse.BodyHandler<Path> handler = info -> {
      OptionalLong declared = info.headers().firstValueAsLong("Content-Length");
      boolean expected = info.statusCode() == 200 && (declared.isEmpty() || declared.getAsLong() == r.size());
      return expected ? HttpResponse.BodySubscribers.ofFile(to) : HttpResponse.BodySubscribers.replacing(to);
    };
    HttpResponse<Path> response;
    try {
      response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(10)).GET().build(), handler);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while downloading", e);
    }
    if (response.statusCode() != 200) throw new IOException("HTTP status " + response.statusCode() + " from " + uri);
    String lastModified = response.headers().firstValue("Last-Modified")
        .orElseThrow(() -> new IOException(uri + " gives no Last-Modified time to verify the resource by"));
    long modified;
    try {
      modified = ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IOException(uri + " gives an unreadable Last-Modified time '" + lastModified + "'");
    }
    long size = Files.isRegularFile(to) ? Files.size(to) : response.headers().firstValueAsLong("Content-Length").orElse(-1);
    SourceCheck.verify(r, size, modified, true, now);
  }
}
