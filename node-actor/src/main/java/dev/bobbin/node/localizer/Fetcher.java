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

/** Copies a resource's source to a local file, verifying it is what was submitted. */
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
    SourceCheck.verify(r, a.size(), a.lastModifiedTime().toMillis(), false, now);
    Files.copy(src, to, StandardCopyOption.REPLACE_EXISTING);
    SourceCheck.verify(r, Files.size(to), a.lastModifiedTime().toMillis(), false, now);
  }

  private void fromHttp(LocalResource r, URI uri, Path to, long now) throws IOException {
    HttpResponse<Path> response;
    try {
      response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(10)).GET().build(),
          HttpResponse.BodyHandlers.ofFile(to));
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
    SourceCheck.verify(r, Files.size(to), modified, true, now);
  }
}
