package dev.bobbin.node.localizer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CacheAccountTest {
  @Test
  void evictsTheLeastRecentlyUsedUntilBelowTheTarget() {
    var account = new CacheAccount<String>();
    account.added("old", 40, 1);
    account.added("mid", 40, 2);
    account.added("new", 40, 3);
    assertThat(account.evictAbove(80)).containsExactly("old");
    assertThat(account.totalBytes()).isEqualTo(80);
    assertThat(account.evictAbove(0)).containsExactly("mid", "new");
    assertThat(account.totalBytes()).isZero();
  }

  @Test
  void neverEvictsWhatAContainerUses() {
    var account = new CacheAccount<String>();
    account.added("a", 100, 1);
    account.added("b", 100, 2);
    account.retain("a", 3);
    assertThat(account.evictAbove(0)).containsExactly("b");
    assertThat(account.holds("a")).isTrue();
    account.release("a", 4);
    assertThat(account.evictAbove(0)).containsExactly("a");
  }

  @Test
  void aUseRenewsAnEntry() {
    var account = new CacheAccount<String>();
    account.added("first", 10, 1);
    account.added("second", 10, 2);
    account.retain("first", 3);
    account.release("first", 4);
    assertThat(account.evictAbove(10)).containsExactly("second");
  }

  @Test
  void nothingIsEvictedAtOrBelowTheTarget() {
    var account = new CacheAccount<String>();
    account.added("a", 10, 1);
    assertThat(account.evictAbove(10)).isEmpty();
  }
}
