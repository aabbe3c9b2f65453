package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.pg.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class EmbeddedPostgresTest {
  @Test
  void startsARealServerOnLoopbackAndStopsIt() throws Exception {
    EmbeddedPostgres pg = EmbeddedPostgres.start();
    String url;
    try (pg) {
      url = pg.jdbcUrl();
      assertThat(url).startsWith("jdbc:postgresql://127.0.0.1:");
      try (Connection c = DriverManager.getConnection(url, pg.user(), pg.password());
          ResultSet rs = c.createStatement().executeQuery("SHOW server_version")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).startsWith("16.");
      }
      // Passwords are checked, so a wrong one in the journal config would show up in tests.
      assertThatThrownBy(() -> DriverManager.getConnection(url, pg.user(), "wrong"))
          .isInstanceOf(SQLException.class);
      EmbeddedPostgres.Database db = pg.createDatabase();
      try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
        assertThat(c.getCatalog()).startsWith("bobbin_");
      }
    }
    assertThatThrownBy(() -> new Socket().connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), pg.port()), 1000))
        .as("nothing listens after close")
        .isInstanceOf(IOException.class);
  }
}
