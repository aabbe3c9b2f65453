/**
 * The ResourceManager's REST API for clients, as YARN's {@code /ws/v1/cluster} resources shape it
 * ({@code AppInfo}, {@code NodeInfo}, {@code ClusterMetricsInfo}...), with Bobbin's additions.
 * Fields a server leaves out read as null, 0 or false.
 */
package dev.bobbin.protocol.rest;
