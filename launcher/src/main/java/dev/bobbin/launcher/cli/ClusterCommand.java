package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bobbin cluster ACTION}: the RM members' Pekko cluster, through the management endpoints
 * of the member {@code --rm} names (the first of them: each member answers with its own view).
 */
@Command(name = "cluster", header = "The RM members' cluster: cluster members, shards, leave MEMBER, down MEMBER.")
final class ClusterCommand implements Runnable {
  static final String ACTIONS = "members, shards, leave, down";
  /** {@code pekko://system@host:port}, {@code system@host:port} or {@code host:port}. */
  private static final Pattern MEMBER = Pattern.compile("(?:pekko://)?(?:([\\w-]+)@)?([^@:/\\s]+):(\\d{1,5})");

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing action: " + ACTIONS);
  }

  /** What the read commands print: a table, or the member's JSON answer as it is. */
  abstract static class Read extends ClientCommand {
    @Option(names = "--output", paramLabel = "table|json", description = "table (default) or json")
    String output = "table";

    Read(ClientContext context, PrintStream out) {
      super(context, out);
    }

    void checkOutput() {
      if (!output.equals("table") && !output.equals("json")) {
        throw new UsageException("Invalid value for option '--output': '" + output + "', expected table or json");
      }
    }

    boolean json(JsonNode answer) {
      if (output.equals("table")) return false;
      try {
        out.println(WireJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(answer));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
      return true;
    }
  }

  @Command(name = "members", header = "Lists the cluster's members: status, reachability, roles, leader, singletons.")
  static final class Members extends Read {
    Members(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    int run() {
      checkOutput();
      OneMember rm = member();
      JsonNode members = rm.get("/cluster/members");
      if (json(members)) return 0;
      List<String> unreachable = new ArrayList<>();
      members.path("unreachable").forEach(u -> unreachable.add(u.path("node").asText()));
      String singletons = rm.get("/cluster/sharding").path("singletons").path("member").asText("");
      List<JsonNode> sorted = new ArrayList<>();
      members.path("members").forEach(sorted::add);
      sorted.sort((a, b) -> a.path("node").asText().compareTo(b.path("node").asText()));
      out.println("Members as " + hostPort(members.path("selfNode").asText()) + " sees them: " + sorted.size());
      TextTable table = new TextTable("Member", "Status", "Reachable", "Roles", "Runs");
      for (JsonNode m : sorted) {
        String node = m.path("node").asText();
        List<String> runs = new ArrayList<>();
        if (node.equals(members.path("leader").asText())) runs.add("leader");
        if (node.equals(singletons)) runs.add("singletons");
        List<String> roles = new ArrayList<>();
        m.path("roles").forEach(r -> {
          if (!r.asText().startsWith("dc-")) roles.add(r.asText());
        });
        table.row(hostPort(node), m.path("status").asText(), unreachable.contains(node) ? "no" : "yes",
            roles.isEmpty() ? "-" : String.join(",", roles), runs.isEmpty() ? "-" : String.join(", ", runs));
      }
      table.print(out);
      return 0;
    }
  }

  @Command(name = "shards", header = "Lists each shard region's shards and entities per member, and where the"
      + " singletons run.")
  static final class Shards extends Read {
    Shards(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    int run() {
      checkOutput();
      JsonNode sharding = member().get("/cluster/sharding");
      if (json(sharding)) return 0;
      TextTable table = new TextTable("Region", "Member", "Shards", "Entities");
      for (JsonNode region : sharding.path("regions")) {
        if (!region.path("answered").asBoolean()) {
          table.row(region.path("typeName").asText(), "(its coordinator did not answer)", "-", "-");
        }
        for (JsonNode m : region.path("members")) {
          table.row(region.path("typeName").asText(), hostPort(m.path("member").asText()),
              m.path("shards").asText(), m.path("entities").asText());
        }
      }
      table.print(out);
      String singletons = sharding.path("singletons").path("member").asText("");
      out.println("Singletons (the scheduler among them) run on: "
          + (singletons.isEmpty() ? "no member is up" : hostPort(singletons)));
      return 0;
    }
  }

  /** {@code leave} and {@code down}: one member, named as {@code members} prints it. */
  abstract static class Change extends ClientCommand {
    @Parameters(paramLabel = "MEMBER", description = "pekko://bobbin@HOST:PORT, bobbin@HOST:PORT or HOST:PORT"
        + " (the member's cluster address)")
    String member;

    Change(ClientContext context, PrintStream out) {
      super(context, out);
    }

    abstract String operation();

    @Override
    int run() {
      Matcher m = MEMBER.matcher(member.strip());
      if (!m.matches() || Integer.parseInt(m.group(3)) > 65535) {
        throw new UsageException("Invalid member '" + member + "', expected its cluster address:"
            + " pekko://bobbin@HOST:PORT, bobbin@HOST:PORT or HOST:PORT");
      }
      OneMember rm = member();
      List<String> known = new ArrayList<>();
      rm.get("/cluster/members").path("members").forEach(n -> known.add(n.path("node").asText()));
      String wanted = m.group(2) + ":" + m.group(3);
      List<String> found = known.stream().filter(a -> a.endsWith("@" + wanted)
          && (m.group(1) == null || a.contains("://" + m.group(1) + "@"))).toList();
      if (found.isEmpty()) {
        throw RmFailure.error("No member " + member + " in the cluster as " + rm.url() + " sees it; its members: "
            + known.stream().sorted().map(ClusterCommand::hostPort).collect(Collectors.joining(", ")));
      }
      JsonNode answer = rm.put("/cluster/members/" + hostPort(found.get(0)), Map.of("operation", operation()));
      out.println(answer.path("message").asText());
      return 0;
    }
  }

  @Command(name = "leave", header = "Has a member leave the cluster gracefully: its shards and singletons move"
      + " to the others, then it stops. For administrators.")
  static final class Leave extends Change {
    Leave(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    String operation() {
      return "Leave";
    }
  }

  @Command(name = "down", header = "Downs a member: the others take its shards and singletons at once, without"
      + " its hand-over. For one that is gone for good and that the split-brain resolver cannot down."
      + " For administrators.")
  static final class Down extends Change {
    Down(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    String operation() {
      return "Down";
    }
  }

  /** {@code pekko://bobbin@h:p} as {@code bobbin@h:p}: what the table shows and the RM accepts. */
  static String hostPort(String address) {
    int i = address.indexOf("://");
    return i < 0 ? address : address.substring(i + 3);
  }
}
