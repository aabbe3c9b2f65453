package dev.bobbin.launcher.cli;

import java.util.Set;

/** RM REST paths and state names the client commands share. */
final class AppPaths {
  static final String APPS = "/ws/v1/cluster/apps";
  static final String NEW_APPLICATION = APPS + "/new-application";
  static final String NODES = "/ws/v1/cluster/nodes";
  static final Set<String> FINAL_STATES = Set.of("FINISHED", "FAILED", "KILLED");

  private AppPaths() {}

  static String app(String appId) {
    return APPS + "/" + appId;
  }

  static String attempts(String appId) {
    return app(appId) + "/appattempts";
  }

  static String state(String appId) {
    return app(appId) + "/state";
  }
}
