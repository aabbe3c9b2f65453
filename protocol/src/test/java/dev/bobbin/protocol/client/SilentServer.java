package dev.bobbin.protocol.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A member that went quiet: it accepts connections on 127.0.0.1 and never answers. Counts the
 * connections it was offered, so a test sees whether a client came back to it.
 */
final class SilentServer implements AutoCloseable {
  private final ServerSocket socket;
  private final List<Socket> held = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  private SilentServer(ServerSocket socket) {
    this.socket = socket;
    this.acceptor = new Thread(this::acceptAll, "silent-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  static SilentServer start() throws IOException {
    return new SilentServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
  }

  String url() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  int connections() {
    return held.size();
  }

  private void acceptAll() {
    try {
      while (!socket.isClosed()) held.add(socket.accept());
    } catch (IOException closed) {
      // closed by the test
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : held) s.close();
  }
}
