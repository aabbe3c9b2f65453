package dev.bobbin.bench;

import dev.bobbin.am.shell.ClassDataSharing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * How bin/bobbin starts an RM member: the launcher's jar, its libraries and the class-data-sharing
 * archive that {@code mvn install} writes when they are current; otherwise the compiled classes.
 * The same rule as bin/bobbin, so that a restart measured here is the restart an operator gets.
 */
record LauncherClasspath(String classpath, List<String> jvmOptions, String note) {

  static LauncherClasspath of(Path home) {
    Path target = home.resolve("launcher/target");
    Path lib = target.resolve("lib");
    Path classes = target.resolve("classes");
    Path jsa = target.resolve("bobbin.jsa");
    Path jar = target.resolve("bobbin-launcher-" + version(target) + ".jar");
    String plain = classes + ":" + lib + "/*";
    try {
      if (!Files.isRegularFile(jsa) || !Files.isRegularFile(jar)) {
        return new LauncherClasspath(plain, List.of(), " The RM JVM ran without a class-data archive (none built).");
      }
      FileTime archived = Files.getLastModifiedTime(jsa);
      FileTime jarTime = Files.getLastModifiedTime(jar);
      if (archived.compareTo(jarTime) <= 0 || archived.compareTo(Files.getLastModifiedTime(lib)) <= 0
          || newerThan(classes, jarTime)) {
        return new LauncherClasspath(plain, List.of(), " The RM JVM ran without a class-data archive (it is stale).");
      }
      return new LauncherClasspath(jar + ":" + lib + "/*",
          ClassDataSharing.options(jsa.toString()),
          " The RM JVM started with the class-data archive of `mvn install`, as bin/bobbin starts it.");
    } catch (IOException e) {
      return new LauncherClasspath(plain, List.of(), " The RM JVM ran without a class-data archive (" + e + ").");
    }
  }

  private static boolean newerThan(Path dir, FileTime t) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).anyMatch(f -> {
        try {
          return Files.getLastModifiedTime(f).compareTo(t) > 0;
        } catch (IOException e) {
          return true;
        }
      });
    }
  }

  private static String version(Path target) {
    Properties p = new Properties();
    try (var in = Files.newInputStream(target.resolve("maven-archiver/pom.properties"))) {
      p.load(in);
    } catch (IOException e) {
      return "";
    }
    return p.getProperty("version", "");
  }
}
