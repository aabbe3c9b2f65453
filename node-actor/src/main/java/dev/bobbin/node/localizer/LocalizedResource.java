package dev.bobbin.node.localizer;

import dev.bobbin.protocol.LocalResource;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One resource's place in a cache: the scope that shares it (every user, one user, or one
 * application) and the source as submitted. Two requests for the same key share one download.
 */
record LocalizedResource(LocalResource.Visibility visibility, String owner, String resource, long timestamp,
    LocalResource.Type type, String pattern) {
  static LocalizedResource of(LocalResource r, String user, String applicationId) {
    String owner = switch (r.visibility()) {
      case PUBLIC -> "";
      case PRIVATE -> user;
      case APPLICATION -> applicationId;
    };
    return new LocalizedResource(r.visibility(), owner, r.resource(), r.timestamp(), r.type(), r.pattern());
  }

  /** A directory name that differs between keys: a digest of the key. */
  String dirName() {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The source's file name, the last part of its path. */
  String fileName() {
    String path = URI.create(resource).getPath();
    int slash = path == null ? -1 : path.lastIndexOf('/');
    String name = path == null ? "" : path.substring(slash + 1);
    return name.isEmpty() || name.equals("..") || name.equals(".") ? "resource" : name;
  }
}
