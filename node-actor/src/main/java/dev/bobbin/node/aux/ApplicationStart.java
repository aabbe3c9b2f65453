package dev.bobbin.node.aux;

/** An application starting a container on the node, with the data its launch context carries for the service. */
public record ApplicationStart(String applicationId, String user, byte[] serviceData) {}
