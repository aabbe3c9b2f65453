/**
 * The ApplicationMaster library.
 *
 * <p>An AM built on actors spawns {@link dev.bobbin.am.AmClient} with
 * {@link dev.bobbin.am.AmClientSettings#fromEnvironment} and an {@code ActorRef<AmEvent>} (usually
 * a message adapter); the client registers at once, heartbeats, and sends every allocation,
 * completion, resync, shutdown and failure to that ref as an {@link dev.bobbin.am.AmEvent}. An AM
 * written without actors uses {@link dev.bobbin.am.AmSession} with an
 * {@link dev.bobbin.am.AmListener} instead. Either way containers are started with
 * {@link dev.bobbin.protocol.client.ContainerManagerClient}. {@code dev.bobbin.am.shell} is the
 * distributed shell built on it.
 */
package dev.bobbin.am;
