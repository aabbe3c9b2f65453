package dev.bobbin.compat.fair;

/** A share as both sides report it: memory in MB and vcores. */
record Amount(long memory, long vcores) {
  static Amount of(org.apache.hadoop.yarn.api.records.Resource r) {
    return new Amount(r.getMemorySize(), r.getVirtualCores());
  }

  static Amount of(dev.bobbin.protocol.Resource r) {
    return new Amount(r.memory(), r.vCores());
  }
}
