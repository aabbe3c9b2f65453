package dev.bobbin.node.aux;

import dev.bobbin.config.SettingsException;
import dev.bobbin.protocol.Ids;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets the containers of an application hand files to each other through their NodeManagers, as
 * MapReduce's shuffle handler does for map outputs. An application that uses it gives every
 * container's launch context a secret of at least {@value #MIN_SECRET_BYTES} bytes as its service
 * data. Each such container finds in {@value #DIR_ENV} a directory of its own for the files it
 * offers; any holder of the secret fetches them, during and after the container, with {@code GET
 * /aux/<service>/<application>/<container>/<file>} and the secret (as text) in the header
 * {@value #SECRET_HEADER}. The files are served until the application ends on the node, and go with
 * the application's directory.
 */
public final class FileServingService implements AuxiliaryService, ServesHttp {
  private static final Logger log = LoggerFactory.getLogger(FileServingService.class);
  public static final String DIR_ENV = "BOBBIN_SERVED_FILES_DIR";
  public static final String SECRET_HEADER = "X-Bobbin-Files-Secret";
  static final int MIN_SECRET_BYTES = 16;
  static final String DIR_NAME = "served-files";

  /** An application served here: its secret and the directory of each of its containers. */
  private record AppFiles(byte[] secret, Map<String, Path> containers) {}

  private final Map<String, AppFiles> apps = new ConcurrentHashMap<>();
  private String name = "files";

  @Override
  public void init(ServiceSetup setup) {
    name = setup.name();
    for (String key : setup.config().root().keySet()) {
      if (!key.equals("class")) throw new SettingsException(setup.key(key), "is not a setting of " + getClass().getName());
    }
    if (setup.containersRunAsOtherUsers()) {
      throw new SettingsException(setup.key("class"), "cannot serve containers' files when the linux container "
          + "executor runs them as their users: their directories are closed to the NodeManager");
    }
  }

  /** Where the service's files are fetched, relative to the node's HTTP address. */
  @Override
  public byte[] metadata() {
    return ("/aux/" + name + "/").getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void initializeApplication(ApplicationStart app) {
    if (!usable(app.serviceData())) {
      log.warn("file service refuses application appId={}: its secret has {} bytes, fewer than {}; its files are "
          + "not served", app.applicationId(), app.serviceData().length, MIN_SECRET_BYTES);
      return;
    }
    AppFiles known = apps.putIfAbsent(app.applicationId(), new AppFiles(app.serviceData().clone(),
        new ConcurrentHashMap<>()));
    if (known == null) {
      log.info("file service serves application appId={} user={}", app.applicationId(), app.user());
    } else if (!MessageDigest.isEqual(known.secret(), app.serviceData())) {
      log.warn("file service keeps the first secret of application appId={}: a later container brought another",
          app.applicationId());
    }
  }

  @Override
  public Map<String, String> environment(ContainerStart container) {
    if (!usable(container.serviceData())) return Map.of();
    return Map.of(DIR_ENV, directory(container).toString());
  }

  @Override
  public void initializeContainer(ContainerStart container) throws IOException {
    AppFiles app = apps.get(container.applicationId());
    if (app == null || !usable(container.serviceData())) return;
    Path dir = directory(container);
    Files.createDirectories(dir);
    app.containers().put(container.containerId(), dir);
  }

  @Override
  public void stopApplication(String applicationId) {
    if (apps.remove(applicationId) != null) {
      log.info("file service no longer serves application appId={}", applicationId);
    }
  }

  @Override
  public Route route() {
    return new FileRoutes(this).route();
  }

  private static boolean usable(byte[] secret) {
    return secret != null && secret.length >= MIN_SECRET_BYTES;
  }

  private static Path directory(ContainerStart c) {
    return c.appLocalDir().resolve(DIR_NAME).resolve(c.containerId());
  }

  /** What a request for one file gets. */
  sealed interface Lookup {}

  record Found(Path file) implements Lookup {}

  /** @param status 401, 403 or 404 */
  record Refused(int status, String message) implements Lookup {}

  /**
   * The file a caller asks for, if the secret it presents is its application's and the file is
   * one a container of that application offered here.
   *
   * @param secret the header's value, or null when it sent none
   */
  Lookup find(String applicationId, String containerId, String fileName, String secret) {
    if (secret == null || secret.isEmpty()) {
      return new Refused(401, "Fetching files of " + applicationId + " needs its secret in the header " + SECRET_HEADER);
    }
    AppFiles app = apps.get(applicationId);
    if (app == null) {
      return new Refused(404, "No files of application " + applicationId + " are served by this NodeManager");
    }
    if (!MessageDigest.isEqual(app.secret(), secret.getBytes(StandardCharsets.UTF_8))) {
      return new Refused(403, "The secret presented is not that of application " + applicationId);
    }
    if (!Ids.isContainerId(containerId) || !Ids.applicationIdOfContainer(containerId).equals(applicationId)) {
      return new Refused(404, containerId + " is not a container of " + applicationId);
    }
    Path dir = app.containers().get(containerId);
    if (dir == null) {
      return new Refused(404, "Container " + containerId + " offers no files on this NodeManager");
    }
    if (!plainName(fileName)) {
      return new Refused(403, "'" + fileName + "' is not a plain file name in the container's directory");
    }
    try {
      Path real = dir.resolve(fileName).toRealPath();
      if (!real.startsWith(dir.toRealPath()) || !Files.isRegularFile(real)) {
        return new Refused(403, "'" + fileName + "' is not a file in the directory of " + containerId);
      }
      return new Found(real);
    } catch (IOException e) {
      return new Refused(404, "Container " + containerId + " offers no file '" + fileName + "'");
    }
  }

  private static boolean plainName(String name) {
    return !name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0
        && name.indexOf('\\') < 0 && name.indexOf('\0') < 0;
  }
}
