package dev.bobbin.am.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.Resource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the produced command through bash, as the NodeManager does, with a stub {@code java}. */
class ShellAmSpecTest {
  private static final List<String> TRICKY = List.of(
      "echo \"hello from $CONTAINER_ID\"",
      "echo 'single quotes' && echo it's",
      "printf '%s\\n' `hostname` $(id -u) ${HOME} \\$ \\\\ ; exit 3",
      "for i in 1 2; do echo $i | tr 1 x; done > out.txt 2>&1 &",
      "line one\nline two\t*?[a]~ !! #not a comment",
      "echo {{PWD}} {{{A}}} <LOG_DIR>/x <CPS> {''{B}} '{{C}}' > <LOG_DIR>/out");

  @TempDir Path dir;

  @Test
  void theAmReceivesTheShellCommandLiterally() throws Exception {
    Path javaHome = stubJava();
    for (String shell : TRICKY) {
      List<String> commands =
          ShellAmSpec.commands("{{PWD}}/lib/*<CPS>/opt/it's here/x.jar", shell, 3, Resource.of(512, 2), 4);
      assertThat(commands).hasSize(1);
      // The NodeManager expands {{JAVA_HOME}} and hands the command to bash.
      List<String> argv = bash(nodeManagerExpands(commands.get(0), javaHome), "container_should_not_expand");

      assertThat(argv).containsExactly(
          "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
          "-Dlogback.configurationFile=bobbin-am-logback.xml",
          "-cp", "/work/dir/lib/*:/opt/it's here/x.jar", DistributedShellAm.class.getName(),
          "--shell", shell, "--containers", "3", "--memory", "512", "--vcores", "2", "--priority", "4");
      ShellAmArgs parsed = ShellAmArgs.parse(argv.subList(7, argv.size()).toArray(String[]::new));
      assertThat(parsed).isEqualTo(new ShellAmArgs(shell, 3, Resource.of(512, 2), 4));
    }
  }

  @Test
  void theArchiveOptionsReachTheJvmAsTheyAre() throws Exception {
    Path javaHome = stubJava();
    List<String> archive = ClassDataSharing.options("/opt/bob bin/{{X}}/<LOG_DIR>/it's.jsa");
    String command = ShellAmSpec.commands("/lib/*", archive, "true", 1, Resource.of(128, 1), 0).get(0);

    List<String> argv = bash(nodeManagerExpands(command, javaHome), "container_1_0001_01_000001");

    assertThat(argv.subList(3, 6)).containsExactly(
        "-XX:SharedArchiveFile=/opt/bob bin/{{X}}/<LOG_DIR>/it's.jsa", "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    assertThat(ShellAmSpec.commands("/lib/*", "true", 1, Resource.of(128, 1), 0))
        .as("this JVM was not started by bin/bobbin with an archive")
        .containsExactlyElementsOf(ShellAmSpec.commands("/lib/*", List.of(), "true", 1, Resource.of(128, 1), 0));
  }

  @Test
  void aJvmStartsWithAnArchiveItCannotRead() throws Exception {
    // A NodeManager host without the archive must still run the AM.
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(ShellAmSpec.JVM_OPTIONS);
    cmd.addAll(ClassDataSharing.options(dir.resolve("missing.jsa").toString()));
    cmd.add("-version");
    Process java = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(java.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(java.exitValue()).as(out).isZero();
    assertThat(out).doesNotContainIgnoringCase("warning").doesNotContainIgnoringCase("archive");
  }

  @Test
  void theWorkerExpandsTheVariableItself() throws Exception {
    // What a worker container runs: the literal command, with its own CONTAINER_ID.
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", "echo \"hello from $CONTAINER_ID\"");
    pb.environment().put("CONTAINER_ID", "container_1_0001_01_000002");
    Process worker = pb.start();
    worker.getOutputStream().close();
    String out = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(worker.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(out)
        .isEqualTo("hello from container_1_0001_01_000002\n");
  }

  @Test
  void theExactCommandLine() {
    assertThat(ShellAmSpec.commands("/lib/*", "echo \"hi $X\"", 2, Resource.of(128, 1), 0)).containsExactly(
        "{{JAVA_HOME}}/bin/java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
            + " -Dlogback.configurationFile=bobbin-am-logback.xml -cp '/lib/*' dev.bobbin.am.shell.DistributedShellAm"
            + " --shell 'echo \"hi $X\"' --containers 2 --memory 128 --vcores 1 --priority 0");
    assertThat(ShellAmSpec.commands("/lib/*", "cat <LOG_DIR>/{{A}}", 1, Resource.of(128, 1), 0).get(0))
        .contains(" --shell 'cat <''LOG_DIR>/{''{''A}}' ");
    assertThat(ShellAmSpec.shellQuote("it's")).isEqualTo("'it'\"'\"'s'");
  }

  @Test
  void rejectsWhatTheAmWouldReject() {
    assertThatThrownBy(() -> ShellAmSpec.commands("/lib/*", " ", 1, Resource.of(128, 1), 0))
        .hasMessageContaining("--shell");
    assertThatThrownBy(() -> ShellAmSpec.commands("/lib/*", "true", 0, Resource.of(128, 1), 0))
        .hasMessageContaining("--containers");
    assertThatThrownBy(() -> ShellAmSpec.shellQuote("a\0b")).hasMessageContaining("NUL");
  }

  /** What the NodeManager does to a command before bash sees it (node-actor's LaunchScript.expand). */
  private static String nodeManagerExpands(String command, Path javaHome) {
    Map<String, String> env = Map.of("JAVA_HOME", javaHome.toString(), "PWD", "/work/dir", "A", "a", "B", "b", "C", "c");
    Matcher m = Pattern.compile("\\{\\{([A-Za-z_][A-Za-z0-9_]*)}}").matcher(command);
    StringBuilder out = new StringBuilder();
    while (m.find()) m.appendReplacement(out, Matcher.quoteReplacement(env.getOrDefault(m.group(1), "")));
    m.appendTail(out);
    return out.toString().replace("<LOG_DIR>", "/logs/am").replace("<CPS>", ":");
  }

  private Path stubJava() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/bash\nprintf '%s\\0' \"$@\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir.resolve("jdk");
  }

  private List<String> bash(String command, String containerId) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(dir.toFile());
    pb.environment().put("CONTAINER_ID", containerId);
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    String all = new String(out, StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>(Arrays.asList(all.split("\0", -1)));
    args.remove(args.size() - 1); // after the last NUL
    return args;
  }
}
