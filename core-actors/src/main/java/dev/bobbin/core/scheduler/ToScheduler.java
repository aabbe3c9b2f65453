package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.AppNotices;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.Submission;
import org.apache.pekko.actor.typed.ActorRef;

/** The Application entities' notices, told to the scheduler (through its singleton proxy). */
public record ToScheduler(ActorRef<SchedulerProtocol.Command> scheduler) implements AppNotices {
  @Override
  public void attemptAdded(String appId, String attemptId, Submission s, long submitTime) {
    scheduler.tell(new SchedulerProtocol.AttemptAdded(appId, attemptId, s.queue(), s.user(), s.priority(),
        s.amResource(), s.amLaunch(), submitTime, s.keepContainers(), s.unmanagedAm()));
  }

  @Override
  public void attemptEnded(String appId, String attemptId) {
    scheduler.tell(new SchedulerProtocol.AttemptEnded(appId, attemptId));
  }

  @Override
  public void appEnded(String appId, AppState state) {
    scheduler.tell(new SchedulerProtocol.AppEnded(appId, state));
  }

  @Override
  public void priorityChanged(String appId, int priority) {
    scheduler.tell(new SchedulerProtocol.PriorityChanged(appId, priority));
  }

  @Override
  public void lifetimeChanged(String appId, long deadline) {
    scheduler.tell(new SchedulerProtocol.LifetimeChanged(appId, deadline));
  }

  @Override
  public void queueMoved(String appId, String queue) {
    scheduler.tell(new SchedulerProtocol.QueueMoved(appId, queue));
  }
}
