package dev.bobbin.launcher.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A ResourceManager stand-in: answers canned YARN JSON per method and path, and records every
 * request. Each route plays its replies in order and then repeats the last one.
 */
final class FakeRm implements AutoCloseable {
  /** @param authorization the request's {@code Authorization} header, or null */
  record Request(String method, String path, Map<String, String> query, String body, String authorization) {}

  record Reply(int status, String body) {}

  private final HttpServer server;
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final Map<String, Deque<Reply>> routes = new ConcurrentHashMap<>();

  FakeRm() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  FakeRm on(String method, String path, Reply... replies) {
    routes.put(method + " " + path, new ArrayDeque<>(List.of(replies)));
    return this;
  }

  FakeRm on(String method, String path, int status, String body) {
    return on(method, path, new Reply(status, body));
  }

  List<Request> requests() {
    return List.copyOf(requests);
  }

  List<Request> requests(String method, String path) {
    return requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    requests.add(new Request(method, path, query(exchange.getRequestURI().getRawQuery()), body,
        exchange.getRequestHeaders().getFirst("Authorization")));
    Reply reply = next(method + " " + path);
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private Reply next(String route) {
    Deque<Reply> replies = routes.get(route);
    if (replies == null) return new Reply(404, "no route " + route);
    synchronized (replies) {
      return replies.size() > 1 ? replies.poll() : replies.peek();
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) return out;
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.put(key, value);
    }
    return out;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
