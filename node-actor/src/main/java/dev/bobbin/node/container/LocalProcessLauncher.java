package dev.bobbin.node.container;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Writes {@code launch_container.sh} into the work dir and runs it as {@code setsid bash
 * launch_container.sh}, so the container gets its own process group (whose id is the root's pid)
 * and its whole tree can be signalled at once.
 */
public final class LocalProcessLauncher implements ProcessLauncher {
  private final boolean useSetsid;
  private final Placement placement;

  public LocalProcessLauncher() {
    this(ContainerExecutors.onPath("setsid"), Placement.NONE);
  }

  private LocalProcessLauncher(boolean useSetsid, Placement placement) {
    this.useSetsid = useSetsid;
    this.placement = placement;
  }

  @Override
  public ProcessLauncher placing(Placement placement) {
    return new LocalProcessLauncher(useSetsid, placement);
  }

  @Override
  public ContainerProcess launch(LaunchSpec spec) throws IOException {
    Files.createDirectories(spec.workDir());
    Files.createDirectories(spec.logDir());
    Path script = spec.workDir().resolve(LaunchSpec.SCRIPT_NAME);
    Files.writeString(script, LaunchScript.render(spec), StandardCharsets.UTF_8);
    trySetPermissions(script);
    List<String> command = useSetsid ? List.of("setsid", "bash", LaunchSpec.SCRIPT_NAME)
        : List.of("bash", LaunchSpec.SCRIPT_NAME);
    ProcessBuilder pb = new ProcessBuilder(Placement.prefixed(placement.prepare(spec), command));
    pb.directory(spec.workDir().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(spec.logDir().resolve(LaunchSpec.STDOUT).toFile())
        .redirectError(spec.logDir().resolve(LaunchSpec.STDERR).toFile());
    return new LocalContainerProcess(pb.start(), useSetsid);
  }

  private static void trySetPermissions(Path script) {
    try {
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));
    } catch (UnsupportedOperationException | IOException e) {
      // Only cosmetic: the script runs through bash, not exec.
    }
  }

}
