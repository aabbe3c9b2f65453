package dev.bobbin.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A file or archive a container needs in its working directory, as YARN's {@code LocalResource}
 * (and its REST form {@code LocalResourceInfo}): where it is, what it is, who may share the local
 * copy, and the size and modification time it had when the application was submitted. The
 * NodeManager refuses a source whose size or time no longer match.
 *
 * @param resource the source URL ({@code file://} or {@code http(s)://})
 * @param size bytes of the source
 * @param timestamp the source's modification time, ms since the epoch
 * @param pattern for {@link Type#PATTERN}: what of the unpacked archive to keep (may be null)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LocalResource(
    String resource, Type type, Visibility visibility, long size, long timestamp, String pattern)
    implements CborSerializable {

  /** How the NodeManager places the download: as it is, or unpacked. */
  public enum Type {
    FILE,
    ARCHIVE,
    /** An archive unpacked, of which a pattern's matches are kept (the jar itself is the link). */
    PATTERN
  }

  /** Who shares one localized copy on a node. */
  public enum Visibility {
    /** Every application of every user. */
    PUBLIC,
    /** Every application of the submitting user. */
    PRIVATE,
    /** The containers of one application; removed with it. */
    APPLICATION
  }

  public LocalResource {
    if (type == null) type = Type.FILE;
    if (visibility == null) visibility = Visibility.APPLICATION;
  }

  public static LocalResource of(String resource, Type type, Visibility visibility, long size, long timestamp) {
    return new LocalResource(resource, type, visibility, size, timestamp, null);
  }
}
