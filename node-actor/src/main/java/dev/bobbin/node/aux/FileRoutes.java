package dev.bobbin.node.aux;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import dev.bobbin.auth.Authentication;
import dev.bobbin.http.server.RemoteErrors;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/** {@code GET <application>/<container>/<file>} below the service's prefix, answered from {@link FileServingService#find}. */
final class FileRoutes extends AllDirectives {
  private static final String ACCESS_CONTROL = "org.apache.hadoop.security.AccessControlException";

  private final FileServingService files;

  FileRoutes(FileServingService files) {
    this.files = files;
  }

  Route route() {
    return get(() -> pathPrefix(segment(), app -> pathPrefix(segment(), container -> path(segment(), name ->
        optionalHeaderValueByName(FileServingService.SECRET_HEADER, secret -> {
          FileServingService.Lookup found = files.find(app, container, name, secret.orElse(null));
          if (found instanceof FileServingService.Found f) {
            return getFromFile(f.file().toFile(), ContentTypes.APPLICATION_OCTET_STREAM);
          }
          FileServingService.Refused r = (FileServingService.Refused) found;
          return complete(RemoteErrors.response(r.status(), exception(r.status()), r.message()));
        })))));
  }

  private static String exception(int status) {
    return switch (status) {
      case 401 -> Authentication.EXCEPTION;
      case 403 -> ACCESS_CONTROL;
      default -> RemoteErrors.NOT_FOUND;
    };
  }
}
