package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;

/** Resources as reasons show them: the default calculator decides by memory alone, so only memory is shown. */
final class Amounts {
  private Amounts() {}

  static String text(ResourceMath rc, Resource r) {
    return rc == ResourceMath.DEFAULT ? "<memory:" + r.memory() + ">" : r.toString();
  }
}
