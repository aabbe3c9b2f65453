package dev.bobbin.protocol.rest;

/** YARN's {@code ClusterInfo} ({@code GET /ws/v1/cluster/info}). */
public record ClusterInfo(
    long id,
    long startedOn,
    String state,
    String haState,
    String rmStateStoreName,
    String resourceManagerVersion,
    String hadoopVersion) {}
