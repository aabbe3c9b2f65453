package dev.bobbin.node.recovery;

import dev.bobbin.protocol.LocalResource;

/**
 * What the state store keeps of one localized PUBLIC or PRIVATE resource, as YARN's state store
 * keeps its localized resources: which resource it is (the scope sharing it and the source as
 * submitted), where its copy is and how big it is, so that a restarted NodeManager uses the copy
 * instead of downloading it again.
 *
 * @param id the copy's directory name, unique on the node
 * @param owner "" for PUBLIC, the user for PRIVATE
 * @param dir the copy's directory; the resource is {@code name} in it
 */
public record StoredResource(
    String id,
    LocalResource.Visibility visibility,
    String owner,
    String resource,
    long timestamp,
    LocalResource.Type type,
    String pattern,
    String dir,
    String name,
    long bytes) {}
