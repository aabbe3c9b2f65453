package dev.bobbin.core.app;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.Resource;

/**
 * One container taken back by the scheduler, and why: the starved application and its share,
 * usage, threshold and timeout, and the victim's share and usage. The same record is kept by the
 * victim (suffered) and by the starved application (caused).
 */
public record PreemptionRecord(
    String containerId,
    String victimAppId,
    String starvedAppId,
    String starvedQueue,
    String kind,
    Resource resource,
    boolean amContainer,
    long decidedAt,
    long killAt,
    String reason) implements CborSerializable {}
