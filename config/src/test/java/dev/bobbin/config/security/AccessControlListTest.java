package dev.bobbin.config.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Hadoop's documented ACL strings, as {@code AccessControlList} reads and checks them. */
class AccessControlListTest {
  private static final Caller ALICE = new Caller("alice", List.of("alice", "eng"));
  private static final Caller CAROL = new Caller("carol", List.of("carol", "group2"));
  private static final Caller DAVE = new Caller("dave", List.of("dave", "sales"));

  @Test
  void usersThenGroups() {
    AccessControlList acl = AccessControlList.parse("user1,user2 group1,group2");
    assertThat(acl.users()).containsExactlyInAnyOrder("user1", "user2");
    assertThat(acl.groups()).containsExactlyInAnyOrder("group1", "group2");
    assertThat(acl.allows(new Caller("user2", List.of()))).isTrue();
    assertThat(acl.allows(CAROL)).as("in group2").isTrue();
    assertThat(acl.allows(DAVE)).isFalse();
  }

  @Test
  void aStarIsEveryone() {
    assertThat(AccessControlList.parse("*").allows(DAVE)).isTrue();
    assertThat(AccessControlList.parse(" * ").everyone()).isTrue();
    // A star on either side of the space is everyone, as Hadoop reads it.
    assertThat(AccessControlList.parse("alice *").everyone()).isTrue();
    assertThat(AccessControlList.parse("*").toString()).isEqualTo("*");
  }

  @Test
  void aSingleSpaceOrNothingIsNoOne() {
    assertThat(AccessControlList.parse(" ")).isEqualTo(AccessControlList.NO_ONE);
    assertThat(AccessControlList.parse("")).isEqualTo(AccessControlList.NO_ONE);
    assertThat(AccessControlList.parse(" ").allows(ALICE)).isFalse();
  }

  @Test
  void aLeadingSpaceNamesGroupsOnly() {
    AccessControlList acl = AccessControlList.parse(" eng");
    assertThat(acl.users()).isEmpty();
    assertThat(acl.allows(ALICE)).isTrue();
    assertThat(acl.allows(new Caller("eng", List.of()))).as("a user named like the group").isFalse();
  }

  @Test
  void namesAreTrimmedAndEmptyOnesDropped() {
    AccessControlList acl = AccessControlList.parse("alice,,bob ops, ,qa");
    assertThat(acl.users()).containsExactlyInAnyOrder("alice", "bob");
    assertThat(acl.groups()).containsExactlyInAnyOrder("ops", "qa");
  }

  @Test
  void theDaemonUserCanBeAdded() {
    AccessControlList admins = AccessControlList.parse(" ").withUser("yarn");
    assertThat(admins.allows(new Caller("yarn", List.of()))).isTrue();
    assertThat(admins.allows(ALICE)).isFalse();
    assertThat(AccessControlList.EVERYONE.withUser("yarn")).isEqualTo(AccessControlList.EVERYONE);
    assertThat(AccessControlList.parse("alice ops").withUser("yarn").toString()).isEqualTo("alice,yarn ops");
  }
}
