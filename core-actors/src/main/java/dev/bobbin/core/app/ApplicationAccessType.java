package dev.bobbin.core.app;

/** YARN's {@code ApplicationAccessType}: what an application's ACLs grant. */
public enum ApplicationAccessType {
  /** See the application's details: diagnostics, tracking URL, the AM's logs and address. */
  VIEW_APP,
  /** Kill it, move it, change its priority. */
  MODIFY_APP
}
