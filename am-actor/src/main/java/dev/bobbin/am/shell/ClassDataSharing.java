package dev.bobbin.am.shell;

import java.util.List;

/**
 * The class-data-sharing archive that {@code bin/bobbin} starts its JVMs with, handed on to the JVMs
 * they start in turn: an AM, or the chaos suite's members and NodeManagers.
 */
public final class ClassDataSharing {
  /** Set by {@code bin/bobbin} to the archive it started this JVM with, when it used one. */
  public static final String PROPERTY = "bobbin.cds.archive";

  private ClassDataSharing() {}

  /** The options that start a JVM with this JVM's archive; none if it runs without one. */
  public static List<String> options() {
    return options(System.getProperty(PROPERTY));
  }

  /**
   * The options that start a JVM with {@code archive}. A JVM whose classpath does not begin with the
   * archive's, or that cannot read it, runs without it; the two log options keep that quiet instead
   * of a warning on stdout.
   */
  public static List<String> options(String archive) {
    if (archive == null || archive.isBlank()) return List.of();
    return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
  }
}
