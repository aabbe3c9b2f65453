package dev.bobbin.core.policy;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.bobbin.protocol.CborSerializable;
import java.util.Map;

/**
 * A policy's state as {@code GET /ws/v1/cluster/scheduler} shows it. Made by the scheduler, it may
 * cross to the member that answers the request, so its concrete type travels with it.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.CLASS)
public interface SchedulerView extends CborSerializable {
  /** YARN's {@code schedulerInfo} object, as plain maps, lists and values. */
  Map<String, Object> schedulerInfo();
}
