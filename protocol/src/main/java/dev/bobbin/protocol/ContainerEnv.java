package dev.bobbin.protocol;

/** Environment variables a NodeManager sets for every container, plus Bobbin's AM extras. */
public final class ContainerEnv {
  public static final String CONTAINER_ID = "CONTAINER_ID";
  public static final String APPLICATION_ID = "APPLICATION_ID";
  public static final String NM_HOST = "NM_HOST";
  public static final String NM_PORT = "NM_PORT";
  public static final String NM_HTTP_PORT = "NM_HTTP_PORT";
  public static final String LOCAL_DIRS = "LOCAL_DIRS";
  public static final String LOG_DIRS = "LOG_DIRS";
  public static final String USER = "USER";
  public static final String JAVA_HOME = "JAVA_HOME";
  public static final String PWD = "PWD";
  /** Comma-separated base URLs of RM members, for an AM to reach the RM. */
  public static final String RM_ADDRESSES = "BOBBIN_RM_ADDRESSES";
  /** The AM token of the attempt, for an AM container only. */
  public static final String AM_TOKEN = "BOBBIN_AM_TOKEN";
  /** For an AM: the certificates its Bobbin clients trust (PKCS#12 or PEM), when not the JVM's. */
  public static final String TLS_TRUST_STORE = "BOBBIN_TLS_TRUST_STORE";
  public static final String TLS_TRUST_STORE_PASSWORD = "BOBBIN_TLS_TRUST_STORE_PASSWORD";
  /** For an AM: "true" when the cluster's servers speak only HTTPS. */
  public static final String HTTPS_ONLY = "BOBBIN_HTTPS_ONLY";

  private ContainerEnv() {}
}
