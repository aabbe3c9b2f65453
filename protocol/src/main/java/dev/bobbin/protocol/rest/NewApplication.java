package dev.bobbin.protocol.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.bobbin.protocol.Resource;

/** {@code POST /ws/v1/cluster/apps/new-application}: the id to submit with, and the largest container. */
public record NewApplication(
    @JsonProperty("application-id") String applicationId,
    @JsonProperty("maximum-resource-capability") Resource maximumResourceCapability) {}
