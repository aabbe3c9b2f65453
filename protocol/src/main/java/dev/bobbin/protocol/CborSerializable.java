package dev.bobbin.protocol;

/**
 * Marker for every message and event that crosses the wire between RM members or is written to
 * the journal. Bound once to Jackson CBOR in the persistence module's {@code serialization.conf}.
 */
public interface CborSerializable {}
