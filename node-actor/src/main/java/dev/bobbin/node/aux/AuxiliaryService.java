package dev.bobbin.node.aux;

import java.util.Map;

/**
 * A service that runs inside a NodeManager beside its containers, as YARN's {@code
 * AuxiliaryService}: named in {@code bobbin.nm.aux-services}, made from the class in {@code
 * bobbin.nm.aux-service.<name>.class} (public, with a public constructor taking nothing), set up
 * with its settings and started with the NodeManager, stopped with it.
 *
 * <p>The node tells it of each application that starts a container here with data for it (the
 * launch context's {@code service-data} under the service's name), of each container it accepts
 * and that ends, and of each application that ended here. Those calls come from the NodeManager's
 * own thread, one at a time, and should be quick; what one throws is logged, and the container goes
 * on. A service that also answers HTTP requests implements {@link ServesHttp}.
 */
public interface AuxiliaryService {
  /** Called once before {@link #start}; what it throws stops the NodeManager's start. */
  void init(ServiceSetup setup) throws Exception;

  /** Called once the NodeManager starts; what it throws stops that start. */
  default void start() throws Exception {}

  /** Called as the NodeManager stops. */
  default void stop() throws Exception {}

  /**
   * What the service tells applications, given in every start-container answer under its name
   * (YARN's service metadata, such as the shuffle port); null for nothing. Asked once, after {@link #start}.
   */
  default byte[] metadata() {
    return null;
  }

  /** A container of {@code app} carrying data for this service is about to start here. Repeats per such container. */
  default void initializeApplication(ApplicationStart app) throws Exception {}

  /** The application ended and none of its containers runs here any more; its directories go next. */
  default void stopApplication(String applicationId) throws Exception {}

  /**
   * Environment entries this service gives the container, asked before its launch is planned; the
   * launch context's own entries of the same names win.
   */
  default Map<String, String> environment(ContainerStart container) {
    return Map.of();
  }

  /** The node accepted the container and is about to launch it. */
  default void initializeContainer(ContainerStart container) throws Exception {}

  /** The container ended (its exit status is reported to the RM as usual). */
  default void stopContainer(ContainerStart container) throws Exception {}
}
