package dev.bobbin.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's groups as the host knows them: {@code id -Gn USER}, primary group first, as Hadoop's
 * {@code ShellBasedUnixGroupsMapping}. Run without a shell; a user the host does not know has none.
 */
final class ShellGroups {
  private static final Logger log = LoggerFactory.getLogger(ShellGroups.class);
  private static final long TIMEOUT_SECONDS = 5;

  private ShellGroups() {}

  static List<String> lookup(String user) {
    if (UserNames.problem(user) != null) return List.of();
    Process p;
    try {
      p = new ProcessBuilder("id", "-Gn", "--", user).redirectErrorStream(false)
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      log.warn("Cannot run id to find the groups of {}: {}", user, e.getMessage());
      return List.of();
    }
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        log.warn("id -Gn {} did not answer in {} s", user, TIMEOUT_SECONDS);
        return List.of();
      }
      if (p.exitValue() != 0) return List.of();
      return Arrays.stream(out.trim().split("\\s+")).filter(g -> !g.isEmpty()).distinct().toList();
    } catch (IOException e) {
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return List.of();
    }
  }
}
