package dev.bobbin.http.serving;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.AbstractExtensionId;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Extension;
import org.apache.pekko.actor.ExtensionIdProvider;

/**
 * What an RM member knows of its own state, where Pekko Management's health checks (built by Pekko
 * from configuration, given nothing but the actor system) find it: its standing in the cluster,
 * whether its journal answers, and which of its shard regions are not up yet. The member installs
 * them once it has started them; until then it is not ready.
 */
public final class MemberSignals implements Extension {
  /** @param regionsDown the names of the shard regions not registered with their coordinator yet */
  public record Signals(Supplier<Standing> standing, Supplier<JournalHealth.Status> journal,
      Supplier<CompletionStage<List<String>>> regionsDown) {}

  private static final Id ID = new Id();
  private volatile Signals signals;

  private MemberSignals() {}

  public static MemberSignals get(ClassicActorSystemProvider system) {
    return ID.get(system);
  }

  public void install(Signals installed) {
    this.signals = installed;
  }

  Optional<Signals> current() {
    return Optional.ofNullable(signals);
  }

  private static final class Id extends AbstractExtensionId<MemberSignals> implements ExtensionIdProvider {
    @Override
    public Id lookup() {
      return ID;
    }

    @Override
    public MemberSignals createExtension(ExtendedActorSystem system) {
      return new MemberSignals();
    }
  }
}
