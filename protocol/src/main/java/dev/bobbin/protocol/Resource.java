package dev.bobbin.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Memory in MB and virtual cores, as YARN's {@code ResourceInfo}: {@code {"memory":..,"vCores":..}}. */
public record Resource(long memory, int vCores) implements CborSerializable {
  public static final Resource NONE = new Resource(0, 0);

  @JsonCreator
  public Resource(@JsonProperty("memory") long memory, @JsonProperty("vCores") int vCores) {
    this.memory = memory;
    this.vCores = vCores;
  }

  @Override
  @JsonProperty("vCores")
  public int vCores() {
    return vCores;
  }

  public static Resource of(long memory, int vCores) {
    return new Resource(memory, vCores);
  }

  public Resource plus(Resource o) {
    return new Resource(memory + o.memory, vCores + o.vCores);
  }

  public Resource minus(Resource o) {
    return new Resource(memory - o.memory, vCores - o.vCores);
  }

  public Resource times(int n) {
    return new Resource(memory * n, vCores * n);
  }

  /** True when every component of {@code o} fits into this resource. */
  public boolean fits(Resource o) {
    return o.memory <= memory && o.vCores <= vCores;
  }

  @JsonIgnore
  public boolean isNegative() {
    return memory < 0 || vCores < 0;
  }

  @Override
  public String toString() {
    return "<memory:" + memory + ", vCores:" + vCores + ">";
  }
}
