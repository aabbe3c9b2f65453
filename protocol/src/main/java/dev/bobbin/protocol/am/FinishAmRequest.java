package dev.bobbin.protocol.am;

import dev.bobbin.protocol.FinalApplicationStatus;

/** AM → RM {@code POST /ws/v1/bobbin/am/finish}: unregister with the final status. */
public record FinishAmRequest(
    FinalApplicationStatus finalApplicationStatus, String diagnostics, String trackingUrl) {}
