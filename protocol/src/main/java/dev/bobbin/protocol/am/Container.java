package dev.bobbin.protocol.am;

import dev.bobbin.protocol.Resource;

/** A container handed to an AM: where it is, how big, and the token that lets the AM start it. */
public record Container(
    String id,
    String nodeId,
    String nodeHttpAddress,
    Resource resource,
    int priority,
    String containerToken,
    long allocationRequestId) {}
