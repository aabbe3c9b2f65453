package dev.bobbin.core.keys;

import java.util.concurrent.CompletionStage;

/** A member's copy of the cluster's keys, as the checks of tokens read it. */
interface HeldKeys {
  /** The copy this member holds; null before it has heard of the keys. */
  KeySnapshot held();

  /** The copy, once this member has one; else asks for it. */
  CompletionStage<KeySnapshot> current();

  /** Asks the keys' singleton for the newest ring. */
  CompletionStage<KeySnapshot> refresh();
}
