package dev.bobbin.node.cleanup;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** File-system work of the node's clean-up, without actors. */
public final class Deletions {
  private Deletions() {}

  /** A path to delete, and when. */
  public record Due(Path path, Instant at) {}

  /**
   * Deletes {@code path} and everything below it. Links are deleted, never followed: a container
   * owns its directories and may have put a link to anything there.
   *
   * @return whether anything was there
   */
  public static boolean deleteTree(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) return false;
    Files.walkFileTree(path, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) return FileVisitResult.CONTINUE;
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) throw e;
        Files.deleteIfExists(dir);
        return FileVisitResult.CONTINUE;
      }
    });
    return true;
  }

  /**
   * What a node starting on its {@code usercache} and {@code logs} folders (one in each local and
   * log directory) finds left from before: every application's local directory ({@code
   * usercache/<user>/appcache/<app>}), due now, since no container of it runs here any more; and
   * every application's log directory ({@code logs/<app>}), due once {@code logRetention} has
   * passed since it last changed.
   */
  public static List<Due> leftovers(List<Path> usercacheDirs, List<Path> logsDirs, Duration logRetention,
      Instant now) throws IOException {
    List<Due> due = new ArrayList<>();
    for (Path usercache : usercacheDirs) {
      for (Path user : children(usercache)) {
        for (Path app : children(user.resolve("appcache"))) due.add(new Due(app, now));
      }
    }
    List<Path> appLogs = new ArrayList<>();
    for (Path logs : logsDirs) appLogs.addAll(children(logs));
    for (Path app : appLogs) {
      Instant changed = Files.getLastModifiedTime(app, LinkOption.NOFOLLOW_LINKS).toInstant();
      Instant at = changed.plus(logRetention);
      due.add(new Due(app, at.isBefore(now) ? now : at));
    }
    return due;
  }

  /** The directories directly in {@code dir} (not links to any); none when it is not a directory. */
  public static List<Path> children(Path dir) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return List.of();
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) out.add(p);
    }
    return out;
  }
}
