package dev.bobbin.protocol.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A small HTTP server on 127.0.0.1 that records every request and answers as each path is told to. */
final class TestingServer implements AutoCloseable {
  /** A request as it arrived. */
  record Received(String method, String path, String query, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  /** How a path answers. */
  interface Answer {
    void answer(HttpExchange exchange) throws IOException;
  }

  final List<Received> received = new CopyOnWriteArrayList<>();
  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();

  TestingServer(HttpServer server) {
    this.server = server;
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  static TestingServer start() throws IOException {
    return new TestingServer(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  int port() {
    return server.getAddress().getPort();
  }

  TestingServer on(String path, Answer answer) {
    answers.put(path, answer);
    return this;
  }

  TestingServer on(String path, int status, String json) {
    return on(path, ex -> reply(ex, status, json));
  }

  static void reply(HttpExchange ex, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) ex.getResponseBody().write(bytes);
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      received.add(new Received(ex.getRequestMethod(), ex.getRequestURI().getPath(), ex.getRequestURI().getQuery(),
          Map.copyOf(ex.getRequestHeaders()), body));
      Answer answer = answers.get(ex.getRequestURI().getPath());
      if (answer == null) reply(ex, 404, "{\"RemoteException\":{\"exception\":\"NotFoundException\","
          + "\"message\":\"no such path\",\"javaClassName\":\"org.apache.hadoop.yarn.webapp.NotFoundException\"}}");
      else answer.answer(ex);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
