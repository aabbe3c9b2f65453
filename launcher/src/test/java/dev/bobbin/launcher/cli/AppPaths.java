package dev.bobbin.launcher.cli;

/** The RM REST paths the client commands call, as the fake RM routes them. */
final class AppPaths {
  static final String APPS = "/ws/v1/cluster/apps";
  static final String NEW_APPLICATION = APPS + "/new-application";
  static final String NODES = "/ws/v1/cluster/nodes";
  static final String REFRESH_QUEUES = "/ws/v1/cluster/admin/refresh-queues";
  static final String REFRESH_NODES = "/ws/v1/cluster/admin/refresh-nodes";
  static final String REFRESH_GROUPS = "/ws/v1/cluster/admin/refresh-user-to-groups-mappings";

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

  static String priority(String appId) {
    return app(appId) + "/priority";
  }

  static String queue(String appId) {
    return app(appId) + "/queue";
  }
}
