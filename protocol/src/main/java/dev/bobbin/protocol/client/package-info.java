/**
 * The one HTTP client of Bobbin's protocols.
 *
 * <p>{@link dev.bobbin.protocol.client.BobbinHttp} is the transport: timeouts, JSON, YARN's
 * RemoteException decoded into a typed failure, and the only place where {@link
 * dev.bobbin.protocol.client.Credentials} and {@link dev.bobbin.protocol.client.TlsSettings} are
 * applied. Each protocol has a typed facade over it: {@link
 * dev.bobbin.protocol.client.ResourceTrackerClient} (NodeManager to RM), {@link
 * dev.bobbin.protocol.client.AmProtocolClient} (AM to RM), {@link
 * dev.bobbin.protocol.client.ContainerManagerClient} (AM or RM to NodeManager), {@link
 * dev.bobbin.protocol.client.RmRestClient} (users and tools to the RM's REST API) and {@link
 * dev.bobbin.protocol.client.NodeRestClient} (to a NodeManager's REST API). {@link
 * dev.bobbin.protocol.client.Failover} chooses among several RM members.
 */
package dev.bobbin.protocol.client;
