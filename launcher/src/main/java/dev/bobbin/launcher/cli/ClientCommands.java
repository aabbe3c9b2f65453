package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import picocli.CommandLine;

/**
 * The client half of the {@code bobbin} CLI: {@code submit}, {@code status}, {@code kill},
 * {@code app}, {@code apps}, {@code nodes}, {@code logs}, {@code admin} and {@code cluster}, and the
 * same as yarn spells them ({@code application}, {@code applicationattempt}, {@code container},
 * {@code node}, {@code queue}, {@code rmadmin}), all talking to the ResourceManager's YARN
 * REST API ({@code logs} to the NodeManagers' too).
 */
public final class ClientCommands {
  private ClientCommands() {}

  /** Adds the client commands to {@code root}; they print to {@code out}. */
  public static void addTo(CommandLine root, ClientContext context, PrintStream out) {
    root.addSubcommand(new SubmitCommand(context, out))
        .addSubcommand(new StatusCommand(context, out))
        .addSubcommand(new KillCommand(context, out))
        .addSubcommand(new AppCommand(context, out))
        .addSubcommand(new AppsCommand(context, out))
        .addSubcommand(new NodesCommand(context, out))
        .addSubcommand(new LogsCommand(context, out))
        .addSubcommand(new ApplicationVerb(context, out))
        .addSubcommand(new AttemptVerb(context, out))
        .addSubcommand(new ContainerVerb(context, out))
        .addSubcommand(new NodeVerb(context, out))
        .addSubcommand(new QueueVerb(context, out))
        .addSubcommand(new RmAdminVerb(context, out))
        .addSubcommand(new CommandLine(new AdminCommand())
            .addSubcommand(new AdminCommand.RefreshQueues(context, out))
            .addSubcommand(new AdminCommand.RefreshNodes(context, out))
            .addSubcommand(new AdminCommand.RefreshGroups(context, out))
            .addSubcommand(new AdminCommand.IssueToken(out)))
        .addSubcommand(new CommandLine(new ClusterCommand())
            .addSubcommand(new ClusterCommand.Members(context, out))
            .addSubcommand(new ClusterCommand.Shards(context, out))
            .addSubcommand(new ClusterCommand.Leave(context, out))
            .addSubcommand(new ClusterCommand.Down(context, out)));
  }
}
