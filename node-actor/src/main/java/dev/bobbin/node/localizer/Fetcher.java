package dev.bobbin.node.localizer;

import dev.bobbin.node.container.OsAccount;
import dev.bobbin.protocol.LocalResource;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Copies a resource's source to a local file, verifying it is what was submitted. An HTTP source
 * is served to anyone who asks, the node included, so it may be PUBLIC; a file only when others
 * may read it ({@link SourceCheck#requirePublic}).
 */
final class Fetcher {
  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(30)).followRedirects(HttpClient.Redirect.NORMAL).build();

  /**
   * @param readAs the user whose permissions a file source is read with, or null for the node's
   *     own: a node running containers as their users must not hand one a file only it could read
   */
  void fetch(LocalResource r, Path to, long now, OsAccount readAs) throws IOException {
    URI uri = URI.create(r.resource());
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
    switch (scheme) {
      case "file" -> {
        if (readAs == null) fromFile(r, Path.of(uri), to, now);
        else fromFileAs(readAs, r, Path.of(uri), to, now);
      }
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

  /**
   * Copied by {@code head} run as the user into a file the node opened, so the user's own
   * permissions decide what it may read, and no more than one byte beyond the size submitted; only
   * then does the node look at the source's size and time.
   */
  private static void fromFileAs(OsAccount user, LocalResource r, Path src, Path to, long now) throws IOException {
    Process head = new ProcessBuilder(List.of("setpriv", "--reuid=" + user.uid(), "--regid=" + user.gid(),
        "--init-groups", "--", "head", "-c", Long.toString(r.size() + 1), "--", src.toString()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(to.toFile())
        .start();
    String err = new String(head.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    try {
      if (!head.waitFor(10, TimeUnit.MINUTES)) {
        head.destroyForcibly();
        throw new IOException("reading " + src + " as " + user.name() + " took more than 10 minutes");
      }
    } catch (InterruptedException e) {
      head.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading " + src, e);
    }
    if (head.exitValue() != 0) {
      throw new IOException(src + " cannot be read by " + user.name() + (err.isEmpty() ? "" : ": " + err));
    }
    BasicFileAttributes a = Files.readAttributes(src, BasicFileAttributes.class);
    if (!a.isRegularFile()) throw new IOException(src + " is not a regular file");
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
