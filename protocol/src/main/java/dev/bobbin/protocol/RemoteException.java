package dev.bobbin.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * YARN's error body: {@code {"RemoteException":{"exception":..,"message":..,"javaClassName":..}}}.
 */
public record RemoteException(@JsonProperty("RemoteException") Body body) {
  public record Body(String exception, String message, String javaClassName) {}

  public static RemoteException of(String javaClassName, String message) {
    String simple = javaClassName.substring(javaClassName.lastIndexOf('.') + 1);
    return new RemoteException(new Body(simple, message, javaClassName));
  }
}
