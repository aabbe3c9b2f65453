package dev.bobbin.core.policy.fair;

/** A queue's schedulingPolicy: how its children (or applications) share it. */
public enum FairPolicyKind {
  /** Memory-only fairness, Hadoop's FairSharePolicy. */
  FAIR,
  /** Dominant resource fairness over memory and vcores. */
  DRF,
  /** Priority, then submission time. */
  FIFO
}
