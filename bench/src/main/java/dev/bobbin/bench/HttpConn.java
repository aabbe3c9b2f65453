package dev.bobbin.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection to 127.0.0.1, used by one thread at a time. The simulators
 * use it instead of java.net.http so that the load generator spends as little of the machine's
 * CPU as it can, leaving it to the RM being measured. Every read has a timeout.
 */
final class HttpConn implements AutoCloseable {
  record Reply(int status, byte[] body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final String host;
  private final int port;
  private final int timeoutMillis;
  private Socket socket;
  private InputStream in;
  private OutputStream out;
  private boolean reused;

  HttpConn(String host, int port, int timeoutMillis) {
    this.host = host;
    this.port = port;
    this.timeoutMillis = timeoutMillis;
  }

  Reply post(String path, byte[] body) throws IOException {
    return call("POST", path, body, null, null);
  }

  Reply post(String path, byte[] body, String header, String value) throws IOException {
    return call("POST", path, body, header, value);
  }

  Reply get(String path) throws IOException {
    return call("GET", path, null, null, null);
  }

  private Reply call(String method, String path, byte[] body, String header, String value) throws IOException {
    // A kept-alive connection the server closed meanwhile fails at once: retry once on a new one.
    for (int attempt = 0; ; attempt++) {
      boolean wasReused = socket != null && reused;
      try {
        open();
        write(method, path, body, header, value);
        Reply r = read();
        reused = true;
        return r;
      } catch (IOException e) {
        close();
        if (attempt > 0 || !wasReused || e instanceof java.net.SocketTimeoutException) throw e;
      }
    }
  }

  private void open() throws IOException {
    if (socket != null) return;
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.setSoTimeout(timeoutMillis);
    s.connect(new InetSocketAddress(host, port), timeoutMillis);
    socket = s;
    in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
    out = new BufferedOutputStream(s.getOutputStream(), 16 * 1024);
    reused = false;
  }

  private void write(String method, String path, byte[] body, String header, String value) throws IOException {
    StringBuilder h = new StringBuilder(160);
    h.append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port)
        .append("\r\nAccept: application/json\r\n");
    if (header != null) h.append(header).append(": ").append(value).append("\r\n");
    if (body != null) {
      h.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
    }
    h.append("\r\n");
    out.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (body != null) out.write(body);
    out.flush();
  }

  private Reply read() throws IOException {
    String status = line();
    if (!status.startsWith("HTTP/1.")) throw new IOException("not an HTTP response: " + status);
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean close = false;
    for (String h; !(h = line()).isEmpty(); ) {
      int colon = h.indexOf(':');
      if (colon < 0) continue;
      String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String v = h.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = Long.parseLong(v);
        case "transfer-encoding" -> chunked = v.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> close = v.equalsIgnoreCase("close");
        default -> { }
      }
    }
    byte[] body;
    if (chunked) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      for (int size; (size = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0; ) {
        b.write(exactly(size));
        line();
      }
      while (!line().isEmpty()) { /* trailers */ }
      body = b.toByteArray();
    } else if (length >= 0) {
      body = exactly((int) length);
    } else {
      body = in.readAllBytes();
      close = true;
    }
    if (close) close();
    return new Reply(code, body);
  }

  private byte[] exactly(int n) throws IOException {
    byte[] b = in.readNBytes(n);
    if (b.length != n) throw new EOFException("connection closed in a response body");
    return b;
  }

  private String line() throws IOException {
    StringBuilder b = new StringBuilder(64);
    for (int c; ; ) {
      c = in.read();
      if (c < 0) throw new EOFException("connection closed");
      if (c == '\n') break;
      if (c != '\r') b.append((char) c);
    }
    return b.toString();
  }

  @Override
  public void close() {
    if (socket == null) return;
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is best effort.
    }
    socket = null;
    in = null;
    out = null;
  }
}
