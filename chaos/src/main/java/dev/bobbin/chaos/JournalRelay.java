package dev.bobbin.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Forwards TCP connections from the bridge's host address to PostgreSQL on 127.0.0.1, same port:
 * the members in their namespaces reach the journal there, while the server keeps listening on
 * loopback only. While PostgreSQL is stopped a connection is accepted and closed at once; while
 * it is frozen, bytes reach a server that does not answer, as they would without the relay.
 */
final class JournalRelay implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  JournalRelay(String address, int port) throws IOException {
    this.targetPort = port;
    this.server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getByName(address), port), 128);
    Thread t = new Thread(this::accept, "chaos-journal-relay");
    t.setDaemon(true);
    t.start();
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return;
      }
      open.add(client);
      Socket upstream = new Socket();
      try {
        upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2000);
      } catch (IOException e) {
        close(client);
        close(upstream);
        continue;
      }
      open.add(upstream);
      pump(client, upstream);
      pump(upstream, client);
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buf)) >= 0; ) {
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // one side went away: close both below
      } finally {
        close(from);
        close(to);
      }
    }, "chaos-journal-relay-pump");
    t.setDaemon(true);
    t.start();
  }

  private void close(Socket s) {
    open.remove(s);
    try {
      s.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    open.forEach(this::close);
  }
}
