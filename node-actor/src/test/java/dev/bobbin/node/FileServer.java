package dev.bobbin.node;

import com.sun.net.httpserver.HttpServer;
import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP server on 127.0.0.1 serving the files of one directory with their Last-Modified times,
 * counting the downloads of each: what the whole-flow localization tests download from.
 */
final class FileServer implements AutoCloseable {
  private final Path dir;
  private final HttpServer server;
  private final Map<String, AtomicInteger> downloads = new ConcurrentHashMap<>();

  FileServer(Path dir) throws IOException {
    this.dir = dir;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", ex -> {
      try (ex) {
        Path file = dir.resolve(ex.getRequestURI().getPath().substring(1));
        if (!Files.isRegularFile(file)) {
          ex.sendResponseHeaders(404, -1);
          return;
        }
        downloads.computeIfAbsent(file.getFileName().toString(), k -> new AtomicInteger()).incrementAndGet();
        ex.getResponseHeaders().set("Last-Modified", DateTimeFormatter.RFC_1123_DATE_TIME.format(
            Files.getLastModifiedTime(file).toInstant().atZone(ZoneOffset.UTC)));
        ex.sendResponseHeaders(200, Files.size(file));
        try (OutputStream out = ex.getResponseBody()) {
          Files.copy(file, out);
        }
      }
    });
    server.start();
  }

  /** A file to serve, with a modification time in whole seconds, as HTTP gives it. */
  Path source(String name, byte[] content) throws IOException {
    Path file = Files.write(dir.resolve(name), content);
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(1_700_000_000L)));
    return file;
  }

  LocalResource resource(Path file, LocalResource.Type type, LocalResource.Visibility visibility) throws IOException {
    return LocalResource.of("http://127.0.0.1:" + server.getAddress().getPort() + "/" + file.getFileName(), type,
        visibility, Files.size(file), Files.getLastModifiedTime(file).toMillis());
  }

  /** How many times {@code name} was downloaded. */
  int downloads(String name) {
    AtomicInteger n = downloads.get(name);
    return n == null ? 0 : n.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
