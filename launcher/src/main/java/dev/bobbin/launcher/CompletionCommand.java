package dev.bobbin.launcher;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bobbin completion}: a bash (and zsh) completion script for every command and option. */
@Command(name = "completion", header = "Prints a bash completion script for bobbin's commands and options.",
    description = {"Load it with: source <(bin/bobbin completion)",
        "zsh reads it after: autoload -U bashcompinit && bashcompinit"})
final class CompletionCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    CommandSpec root = spec.root();
    spec.commandLine().getOut().print(AutoComplete.bash(root.name(), root.commandLine()));
    spec.commandLine().getOut().flush();
  }
}
