package dev.bobbin.protocol.am;

import java.util.List;

/**
 * YARN's PreemptionMessage, flattened: {@code strictContract} lists containers the RM will kill
 * after its grace period whatever the AM does; {@code contract} lists containers the RM would take,
 * which the AM may satisfy by releasing any containers worth {@code contractResources}. Each
 * listed container carries why it was chosen.
 */
public record PreemptionMessage(
    List<PreemptedContainer> strictContract, List<PreemptedContainer> contract,
    List<ResourceRequest> contractResources) {
  public PreemptionMessage {
    strictContract = strictContract == null ? List.of() : List.copyOf(strictContract);
    contract = contract == null ? List.of() : List.copyOf(contract);
    contractResources = contractResources == null ? List.of() : List.copyOf(contractResources);
  }

  /** A container to be preempted, the time it will be killed, and the scheduler's reason. */
  public record PreemptedContainer(String id, long killAtMillis, String reason) {}
}
