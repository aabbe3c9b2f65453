package dev.bobbin.protocol.am;

/** False means the RM has not yet made the final state durable: the AM retries until true. */
public record FinishAmResponse(boolean isUnregistered) {}
