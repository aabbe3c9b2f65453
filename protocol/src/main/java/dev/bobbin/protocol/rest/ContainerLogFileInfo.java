package dev.bobbin.protocol.rest;

/**
 * YARN's {@code ContainerLogFileInfo} ({@code GET /ws/v1/node/containers/{id}/logs}): one of a
 * container's log files, its size in bytes and when it last changed, as text.
 */
public record ContainerLogFileInfo(String fileName, String fileSize, String lastModifiedTime) {}
