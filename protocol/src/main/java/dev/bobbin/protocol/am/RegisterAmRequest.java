package dev.bobbin.protocol.am;

/** AM → RM {@code POST /ws/v1/bobbin/am/register}; the attempt comes from the AM token. */
public record RegisterAmRequest(String host, int rpcPort, String trackingUrl) {}
