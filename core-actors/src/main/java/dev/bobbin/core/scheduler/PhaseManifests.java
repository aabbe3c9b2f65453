package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;

/**
 * The journal manifests of the container events that set its phase, so that a container's final
 * phase can be told from its rows without decoding them.
 */
record PhaseManifests(Set<String> ending, Set<String> other) {

  static PhaseManifests of(ActorSystem<?> system) {
    Serialization serialization = SerializationExtension.get(system);
    return new PhaseManifests(
        Set.of(manifest(serialization, new ContainerEntity.Completed(0, "", 0)),
            manifest(serialization, new ContainerEntity.Withdrawn(0))),
        Set.of(manifest(serialization, new ContainerEntity.Allocated(null, 0)),
            manifest(serialization, new ContainerEntity.Launched(0))));
  }

  /**
   * Whether the last phase-setting event among these manifests (in order) ends the container:
   * {@code Completed} or {@code Withdrawn} after any {@code Allocated} or {@code Launched}.
   */
  boolean endsCompleted(List<String> manifests) {
    for (int i = manifests.size() - 1; i >= 0; i--) {
      String m = manifests.get(i);
      if (ending.contains(m)) return true;
      if (other.contains(m)) return false;
    }
    return false;
  }

  private static String manifest(Serialization serialization, Object event) {
    return Serializers.manifestFor(serialization.findSerializerFor(event), event);
  }
}
