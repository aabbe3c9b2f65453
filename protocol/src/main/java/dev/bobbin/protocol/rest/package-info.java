/**
 * The REST APIs for clients, as YARN's resources shape them: the ResourceManager's {@code
 * /ws/v1/cluster} ({@code AppInfo}, {@code NodeInfo}, {@code ClusterMetricsInfo}...), with Bobbin's
 * additions, and the NodeManager's {@code /ws/v1/node} ({@link
 * dev.bobbin.protocol.rest.NodeManagerInfo}, {@link dev.bobbin.protocol.rest.NodeContainerInfo}).
 * Fields a server leaves out read as null, 0 or false.
 */
package dev.bobbin.protocol.rest;
