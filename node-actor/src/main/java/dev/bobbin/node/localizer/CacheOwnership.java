package dev.bobbin.node.localizer;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import dev.bobbin.node.container.OsAccount;
import dev.bobbin.protocol.LocalResource.Visibility;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

/**
 * Owners and modes of the caches when containers run as the users who submitted them (the linux
 * executor), as YARN's localizer leaves them: PUBLIC copies are the node's and every user may read
 * them (directories 0755, files 0555); PRIVATE and APPLICATION copies belong to their user alone
 * (directories 0700, files 0500). The directories that lead to a user's copies are the node's and
 * let only that user through (0710 with the user's group), so no other user reaches them and the
 * user cannot swap them for links. With {@code account} null, containers run as the node's own user
 * and nothing changes. The node writes a copy where no user can interfere and hands it over whole.
 */
final class CacheOwnership {
  private CacheOwnership() {}

  /** A directory every container may pass through: the node's folder, {@code filecache}, {@code usercache}. */
  static Path sharedDir(Path dir, OsAccount account) throws IOException {
    Files.createDirectories(dir);
    if (account != null) nodeOwned(dir, -1, "rwxr-xr-x");
    return dir;
  }

  /** A directory only {@code account}'s user may pass through: {@code usercache/<user>} and its {@code filecache}. */
  static Path userPassage(Path dir, OsAccount account) throws IOException {
    Files.createDirectories(dir);
    if (account != null) nodeOwned(dir, account.gid(), "rwx--x---");
    return dir;
  }

  /** Gives a finished copy its owner and modes before anyone may see it. */
  static void handOver(Path copy, Visibility visibility, OsAccount account) throws IOException {
    if (account == null) return;
    boolean shared = visibility == Visibility.PUBLIC;
    try (Stream<Path> tree = Files.walk(copy)) {
      for (Path p : tree.toList()) {
        if (!shared) {
          Files.setAttribute(p, "unix:uid", account.uid(), NOFOLLOW_LINKS);
          Files.setAttribute(p, "unix:gid", account.gid(), NOFOLLOW_LINKS);
        }
        if (Files.isSymbolicLink(p)) continue;
        boolean dir = Files.isDirectory(p, NOFOLLOW_LINKS);
        setMode(p, dir ? (shared ? "rwxr-xr-x" : "rwx------") : (shared ? "r-xr-xr-x" : "r-x------"));
      }
    }
  }

  /**
   * Moves the finished APPLICATION copy {@code staged} into {@code appDir}'s {@code filecache}
   * as {@code name}. The application's directory belongs to its user, who may have put anything
   * in it: the move goes through directories opened without following links, so it lands there
   * or nowhere.
   */
  static Path placeInAppDir(Path staged, Path appDir, String name, OsAccount account) throws IOException {
    Path filecache = appDir.resolve("filecache");
    if (account == null) {
      Files.createDirectories(filecache);
      return Files.move(staged, filecache.resolve(name));
    }
    try {
      Files.createDirectory(filecache);
      Files.setAttribute(filecache, "unix:uid", account.uid(), NOFOLLOW_LINKS);
      setMode(filecache, "rwxr-x---");
    } catch (FileAlreadyExistsException e) {
      // Made for an earlier container of the application; checked below.
    }
    try (DirectoryStream<Path> from = Files.newDirectoryStream(staged.getParent());
         DirectoryStream<Path> app = Files.newDirectoryStream(appDir)) {
      if (!(from instanceof SecureDirectoryStream<Path> source) || !(app instanceof SecureDirectoryStream<Path> owner)) {
        throw new IOException("this file system cannot place resources safely in a user's directory");
      }
      try (SecureDirectoryStream<Path> target = owner.newDirectoryStream(Path.of("filecache"), NOFOLLOW_LINKS)) {
        source.move(staged.getFileName(), target, Path.of(name));
      }
    } catch (IOException e) {
      throw new IOException("cannot place it in " + filecache + ": " + e.getMessage(), e);
    }
    return filecache.resolve(name);
  }

  private static void nodeOwned(Path dir, int gid, String mode) throws IOException {
    if (!Files.isDirectory(dir, NOFOLLOW_LINKS)) throw new IOException(dir + " is not a directory");
    Files.setAttribute(dir, "unix:uid", 0, NOFOLLOW_LINKS);
    if (gid >= 0) Files.setAttribute(dir, "unix:gid", gid, NOFOLLOW_LINKS);
    setMode(dir, mode);
  }

  private static void setMode(Path p, String mode) throws IOException {
    Files.getFileAttributeView(p, PosixFileAttributeView.class, NOFOLLOW_LINKS)
        .setPermissions(PosixFilePermissions.fromString(mode));
  }
}
