package dev.bobbin.node.aux;

import dev.bobbin.config.AuxServiceSettings;
import dev.bobbin.config.SettingsException;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.pekko.http.javadsl.server.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's auxiliary services, as YARN's {@code AuxServices}: loads them from the settings,
 * starts and stops them, collects their metadata, and tells each of them of applications and
 * containers, logging what a service throws so that no container suffers for it.
 */
public final class AuxServices {
  private static final Logger log = LoggerFactory.getLogger(AuxServices.class);

  private final Map<String, AuxiliaryService> services;
  private volatile Map<String, String> metadata = Map.of();

  private AuxServices(Map<String, AuxiliaryService> services) {
    this.services = Collections.unmodifiableMap(services);
  }

  public static AuxServices none() {
    return new AuxServices(Map.of());
  }

  /** These services, already made; tests use this. */
  public static AuxServices of(Map<String, AuxiliaryService> services) {
    return new AuxServices(new LinkedHashMap<>(services));
  }

  /**
   * Makes and sets up every configured service.
   *
   * @throws SettingsException naming the class key of a service that cannot be made or set up
   */
  public static AuxServices load(AuxServiceSettings settings, ClassLoader loader, boolean containersRunAsOtherUsers) {
    Map<String, AuxiliaryService> made = new LinkedHashMap<>();
    for (AuxServiceSettings.Service s : settings.services()) {
      AuxiliaryService service = instantiate(s, loader);
      try {
        service.init(new ServiceSetup(s.name(), s.config(), containersRunAsOtherUsers));
      } catch (SettingsException e) {
        throw e;
      } catch (Exception | LinkageError e) {
        throw new SettingsException(s.classKey(), "the service '" + s.name() + "' (" + s.className()
            + ") could not be set up: " + e);
      }
      made.put(s.name(), service);
    }
    return new AuxServices(made);
  }

  private static AuxiliaryService instantiate(AuxServiceSettings.Service s, ClassLoader loader) {
    Class<?> type;
    try {
      type = Class.forName(s.className(), true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new SettingsException(s.classKey(), "cannot load class " + s.className() + ": " + e);
    }
    if (!AuxiliaryService.class.isAssignableFrom(type)) {
      throw new SettingsException(s.classKey(), s.className() + " is not an " + AuxiliaryService.class.getName());
    }
    try {
      return (AuxiliaryService) type.getConstructor().newInstance();
    } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
      throw new SettingsException(s.classKey(), s.className() + " needs a public constructor taking nothing: " + e);
    } catch (InvocationTargetException e) {
      throw new SettingsException(s.classKey(), s.className() + " failed in its constructor: " + e.getCause());
    }
  }

  /**
   * Starts the services in their order and records their metadata; if one fails, those started
   * are stopped again.
   *
   * @throws SettingsException naming the class key of the service that failed
   */
  public void start() {
    List<String> started = new ArrayList<>();
    Map<String, String> meta = new LinkedHashMap<>();
    for (var e : services.entrySet()) {
      try {
        e.getValue().start();
        started.add(e.getKey());
        byte[] m = e.getValue().metadata();
        if (m != null) meta.put(e.getKey(), Base64.getEncoder().encodeToString(m));
      } catch (Exception | LinkageError failure) {
        started.forEach(this::stopOne);
        throw new SettingsException(AuxServiceSettings.SERVICE_KEY + "." + e.getKey() + ".class",
            "the service '" + e.getKey() + "' failed to start: " + failure);
      }
      log.info("auxiliary service started service={} class={}", e.getKey(), e.getValue().getClass().getName());
    }
    metadata = Map.copyOf(meta);
  }

  /** Stops every service, the last started first. */
  public void stop() {
    List<String> names = new ArrayList<>(services.keySet());
    Collections.reverse(names);
    names.forEach(this::stopOne);
  }

  private void stopOne(String name) {
    try {
      services.get(name).stop();
      log.info("auxiliary service stopped service={}", name);
    } catch (Exception | LinkageError e) {
      log.warn("auxiliary service failed to stop service={}", name, e);
    }
  }

  /** Service name to base64 metadata, for start-container answers. */
  public Map<String, String> metadata() {
    return metadata;
  }

  public Set<String> names() {
    return services.keySet();
  }

  /**
   * Why a launch context's service data cannot be taken, as YARN refuses data for a service the
   * node does not run; null when it can.
   */
  public String refusal(Map<String, String> serviceData) {
    Set<String> unknown = new TreeSet<>(serviceData.keySet());
    unknown.removeAll(services.keySet());
    if (!unknown.isEmpty()) {
      return "The auxService:" + String.join(",", unknown) + " does not exist on this NodeManager (it runs "
          + (services.isEmpty() ? "none" : String.join(",", services.keySet())) + ")";
    }
    for (var e : serviceData.entrySet()) {
      try {
        Base64.getDecoder().decode(e.getValue());
      } catch (IllegalArgumentException bad) {
        return "The service data for " + e.getKey() + " is not base64: " + bad.getMessage();
      }
    }
    return null;
  }

  /** The services with HTTP resources, by name. */
  public Map<String, Route> routes() {
    Map<String, Route> out = new LinkedHashMap<>();
    services.forEach((name, s) -> {
      if (s instanceof ServesHttp http) out.put(name, http.route());
    });
    return out;
  }

  /**
   * The environment the services give a container, in service order (an earlier service's entry
   * wins over a later one's).
   */
  public Map<String, String> environment(ContainerStart container, Map<String, String> serviceData) {
    Map<String, String> env = new LinkedHashMap<>();
    services.forEach((name, s) -> {
      try {
        s.environment(forService(container, serviceData, name)).forEach(env::putIfAbsent);
      } catch (RuntimeException | LinkageError e) {
        warn(name, "environment", container.containerId(), e);
      }
    });
    return env;
  }

  /**
   * A container is accepted: each service with data in its launch context hears of its
   * application, then every service hears of the container.
   */
  public void containerAccepted(ContainerStart container, Map<String, String> serviceData) {
    serviceData.forEach((name, data) -> {
      AuxiliaryService s = services.get(name);
      if (s == null) return;
      call(name, "application init", container.applicationId(), () -> s.initializeApplication(
          new ApplicationStart(container.applicationId(), container.user(), Base64.getDecoder().decode(data))));
    });
    eachService("container init", container.containerId(),
        (name, s) -> s.initializeContainer(forService(container, serviceData, name)));
  }

  public void containerStopped(ContainerStart container, Map<String, String> serviceData) {
    eachService("container stop", container.containerId(),
        (name, s) -> s.stopContainer(forService(container, serviceData, name)));
  }

  public void applicationStopped(String applicationId) {
    eachService("application stop", applicationId, (name, s) -> s.stopApplication(applicationId));
  }

  private static ContainerStart forService(ContainerStart c, Map<String, String> serviceData, String name) {
    String data = serviceData.get(name);
    return new ContainerStart(c.containerId(), c.applicationId(), c.user(), c.resource(), c.workDir(),
        c.appLocalDir(), data == null ? null : Base64.getDecoder().decode(data));
  }

  private interface Call {
    void to(String name, AuxiliaryService service) throws Exception;
  }

  private void eachService(String event, String id, Call call) {
    services.forEach((name, s) -> call(name, event, id, () -> call.to(name, s)));
  }

  private interface Action {
    void run() throws Exception;
  }

  private static void call(String name, String event, String id, Action action) {
    try {
      action.run();
    } catch (Exception | LinkageError e) {
      warn(name, event, id, e);
    }
  }

  private static void warn(String name, String event, String id, Throwable e) {
    log.warn("auxiliary service failed at {} service={} id={}", event, name, id, e);
  }
}
