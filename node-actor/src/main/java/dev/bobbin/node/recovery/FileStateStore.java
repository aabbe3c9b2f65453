package dev.bobbin.node.recovery;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's state store (YARN's NMStateStoreService): one small JSON file per container
 * ({@code containers/<id>.json}), per application ({@code applications/<id>.json}) and per
 * localized resource ({@code resources/<id>.json}) under its directory. Each record changes as a whole and is written whole: to a temporary file that is
 * forced to disk, then renamed over the old one, and the directory forced too. A crash at any
 * point leaves the old record or the new one, never a mix; a temporary file found at start is
 * the remains of an interrupted write and is dropped. This needs no database in the agent (whose
 * classpath has none) and no log to compact, and an operator can read the files.
 */
public final class FileStateStore {
  private static final Logger log = LoggerFactory.getLogger(FileStateStore.class);
  private static final String SUFFIX = ".json";
  private static final String TMP = ".tmp";
  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9_.-]+");
  private final ObjectMapper json = WireJson.mapper();
  private final Path containers;
  private final Path applications;
  private final Path resources;

  /** Opens (making when missing, readable by the NodeManager's user only) the store in {@code dir}. */
  public FileStateStore(Path dir) throws IOException {
    privateDir(dir);
    this.containers = privateDir(dir.resolve("containers"));
    this.applications = privateDir(dir.resolve("applications"));
    this.resources = privateDir(dir.resolve("resources"));
  }

  public NmState load() throws IOException {
    return new NmState(readAll(containers, StoredContainer.class), readAll(applications, StoredApplication.class));
  }

  public void put(StoredContainer c) throws IOException {
    write(containers, c.containerId(), c);
  }

  public void removeContainer(String containerId) throws IOException {
    remove(containers, containerId);
  }

  public void put(StoredApplication a) throws IOException {
    write(applications, a.applicationId(), a);
  }

  public void removeApplication(String applicationId) throws IOException {
    remove(applications, applicationId);
  }

  public List<StoredResource> loadResources() throws IOException {
    return readAll(resources, StoredResource.class);
  }

  public void put(StoredResource r) throws IOException {
    write(resources, r.id(), r);
  }

  public void removeResource(String id) throws IOException {
    remove(resources, id);
  }

  private void write(Path dir, String id, Object value) throws IOException {
    Path tmp = dir.resolve(fileName(id) + TMP);
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      ByteBuffer bytes = ByteBuffer.wrap(json.writeValueAsBytes(value));
      while (bytes.hasRemaining()) ch.write(bytes);
      ch.force(true);
    }
    Files.move(tmp, dir.resolve(fileName(id)), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    forceDir(dir);
  }

  private void remove(Path dir, String id) throws IOException {
    if (Files.deleteIfExists(dir.resolve(fileName(id)))) forceDir(dir);
  }

  private <T> List<T> readAll(Path dir, Class<T> type) throws IOException {
    List<T> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (name.endsWith(TMP)) {
          log.info("Dropping {}: a write to the NodeManager's state store that did not finish", f);
          Files.deleteIfExists(f);
        } else if (name.endsWith(SUFFIX)) {
          try {
            out.add(json.readValue(f.toFile(), type));
          } catch (IOException e) {
            log.warn("Ignoring {} in the NodeManager's state store: it cannot be read ({})", f, e.getMessage());
          }
        }
      }
    }
    return out;
  }

  private static String fileName(String id) throws IOException {
    if (!SAFE_ID.matcher(id).matches() || id.startsWith(".")) throw new IOException("Not a storable id: " + id);
    return id + SUFFIX;
  }

  private static Path privateDir(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
    return dir;
  }

  /** Makes a rename or delete in {@code dir} durable. */
  private static void forceDir(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
