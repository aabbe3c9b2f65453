package dev.bobbin.am;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.ResourceRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class AskTableTest {
  private static final Resource GB = Resource.of(1024, 1);

  @Test
  void totalsAreAbsolutePerKeyAndOnlyChangedKeysAreSent() {
    AskTable t = AskTable.empty().add(ContainerRequest.any(GB, 1)).add(ContainerRequest.any(GB, 1));
    AskTable.Drained first = t.drain();
    assertThat(first.asks()).extracting(ResourceRequest::resourceName, ResourceRequest::numContainers)
        .containsExactly(tuple("*", 2));

    // Nothing changed: nothing to send.
    assertThat(first.table().drain().asks()).isEmpty();

    // One more: the total (3) goes out, not the delta.
    AskTable.Drained second = first.table().add(ContainerRequest.any(GB, 1)).drain();
    assertThat(second.asks()).extracting(ResourceRequest::numContainers).containsExactly(3);
  }

  @Test
  void allocationRemovesTheMatchedRequestWithoutMarkingItUnsent() {
    AskTable t = AskTable.empty().add(ContainerRequest.any(GB, 1)).add(ContainerRequest.any(GB, 1)).drain().table();
    // The RM normalised 1000 MB up to 1024: the request still matches.
    AskTable after = t.allocated(container("c2", "n1:1", Resource.of(1024, 1), 1));
    assertThat(after.outstandingCount()).isEqualTo(1);
    assertThat(after.drain().asks()).isEmpty();
    assertThat(after.asks()).extracting(ResourceRequest::numContainers).containsExactly(1);
  }

  @Test
  void aContainerOfAnotherPriorityOrTooSmallMatchesNothing() {
    AskTable t = AskTable.empty().add(ContainerRequest.any(GB, 1));
    assertThat(t.allocated(container("c2", "n1:1", GB, 2)).outstandingCount()).isEqualTo(1);
    assertThat(t.allocated(container("c3", "n1:1", Resource.of(512, 1), 1)).outstandingCount()).isEqualTo(1);
  }

  @Test
  void nodeAndRackPreferencesExpandToThreeLevelsAndANodeLocalContainerTakesThatRequest() {
    ContainerRequest onN1 = new ContainerRequest(GB, List.of("n1"), List.of("/r1"), 1, false, -1);
    ContainerRequest anywhere = ContainerRequest.any(GB, 1);
    AskTable t = AskTable.empty().add(anywhere).add(onN1);

    assertThat(t.drain().asks())
        .extracting(ResourceRequest::resourceName, ResourceRequest::numContainers, ResourceRequest::relaxLocality)
        .containsExactlyInAnyOrder(tuple("*", 2, true), tuple("n1", 1, true), tuple("/r1", 1, true));

    AskTable after = t.allocated(container("c2", "n1:45454", GB, 1));
    assertThat(after.asks()).extracting(ResourceRequest::resourceName).containsExactly("*");
  }

  @Test
  void strictLocalityIsSentOnTheAnyLevel() {
    ContainerRequest onN1 = new ContainerRequest(GB, List.of("n1"), List.of(), 1, false, -1);
    assertThat(AskTable.empty().add(onN1).drain().asks())
        .extracting(ResourceRequest::resourceName, ResourceRequest::relaxLocality)
        .containsExactlyInAnyOrder(tuple("n1", true), tuple("*", false));
  }

  @Test
  void removingSendsTheLowerTotalAndZeroCancels() {
    ContainerRequest r = ContainerRequest.any(GB, 1);
    AskTable t = AskTable.empty().add(r).drain().table();
    assertThat(t.remove(r).drain().asks()).extracting(ResourceRequest::numContainers).containsExactly(0);
    assertThat(t.remove(ContainerRequest.any(GB, 7))).isSameAs(t);
  }

  @Test
  void afterResyncEveryOutstandingKeyIsSentAgain() {
    AskTable t = AskTable.empty().add(ContainerRequest.any(GB, 1)).add(ContainerRequest.any(GB, 2)).drain().table();
    assertThat(t.markAllUnsent().drain().asks())
        .extracting(ResourceRequest::priority, ResourceRequest::numContainers)
        .containsExactly(tuple(1, 1), tuple(2, 1));
  }

  private static Container container(String id, String node, Resource r, int priority) {
    return new Container(id, node, "h:8042", r, priority, "token", -1);
  }
}
