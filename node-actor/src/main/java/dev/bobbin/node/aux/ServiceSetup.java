package dev.bobbin.node.aux;

import com.typesafe.config.Config;

/**
 * What a service is set up with.
 *
 * @param config its block, {@code bobbin.nm.aux-service.<name>} ({@code class} included)
 * @param containersRunAsOtherUsers whether the node runs containers as their users (the {@code
 *     linux} container executor), so that their directories may be closed to the NodeManager
 */
public record ServiceSetup(String name, Config config, boolean containersRunAsOtherUsers) {
  /** The full key of one of the service's settings, for messages. */
  public String key(String setting) {
    return dev.bobbin.config.AuxServiceSettings.SERVICE_KEY + "." + name + "." + setting;
  }
}
