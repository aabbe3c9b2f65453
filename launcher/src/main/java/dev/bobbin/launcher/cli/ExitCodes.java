package dev.bobbin.launcher.cli;

import dev.bobbin.config.SettingsException;
import dev.bobbin.protocol.tls.TlsStoreException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The exit codes the README promises, and what each failure prints: a usage error names the bad
 * option or value and shows the command's usage; the RM's refusals and unreachability say what the
 * RM said or why it could not be reached. The tools' command lines answer the same way.
 */
public final class ExitCodes implements IParameterExceptionHandler, IExecutionExceptionHandler {
  public static final int OK = 0;
  /** The RM refused, or a followed application did not succeed. */
  public static final int REFUSED = RmFailure.RM_ERROR;
  public static final int UNREACHABLE = RmFailure.UNREACHABLE;
  public static final int USAGE = 64;
  public static final int BAD_SETTING = 78;
  /** Anything else that went wrong, as the message says. */
  public static final int FAILED = 1;

  private static final List<String> USAGE_FIRST = List.of(UsageMessageSpec.SECTION_KEY_SYNOPSIS_HEADING,
      UsageMessageSpec.SECTION_KEY_SYNOPSIS, UsageMessageSpec.SECTION_KEY_HEADER_HEADING, UsageMessageSpec.SECTION_KEY_HEADER);

  /** For the help: each code with what it means. */
  public static Map<String, String> described() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(" " + OK, "ok");
    codes.put(" " + REFUSED, "refused by the RM, an application followed with --wait did not succeed, or another failure");
    codes.put(" " + UNREACHABLE, "the RM could not be reached");
    codes.put(USAGE + "", "usage error (the message names the option or value)");
    codes.put(BAD_SETTING + "", "bad setting in the configuration");
    return codes;
  }

  /**
   * {@code line} printing to {@code out} and {@code err}, its failures answered as above, its help
   * beginning with the usage line; for the whole tree of its commands.
   */
  public static CommandLine configure(CommandLine line, PrintStream out, PrintStream err) {
    ExitCodes handler = new ExitCodes();
    List<String> sections = new ArrayList<>(line.getHelpSectionKeys());
    sections.removeAll(USAGE_FIRST);
    sections.addAll(0, USAGE_FIRST);
    return line.setHelpSectionKeys(sections)
        .setParameterExceptionHandler(handler)
        .setExecutionExceptionHandler(handler)
        .setOut(new PrintWriter(out, true))
        .setErr(new PrintWriter(err, true));
  }

  /**
   * {@code command} with {@code args} parsed into it, for a caller that validates and runs it itself;
   * a bad command line is thrown as {@code refusal} of the message that names the problem.
   */
  public static <T> T parse(T command, List<String> args, Function<String, ? extends UsageException> refusal) {
    try {
      new CommandLine(command).parseArgs(args.toArray(String[]::new));
    } catch (ParameterException e) {
      throw refusal.apply(message(e));
    }
    return command;
  }

  @Override
  public int handleParseException(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println(message(e));
    UnmatchedArgumentException.printSuggestions(e, err);
    err.print(command.getUsageMessage());
    err.flush();
    return USAGE;
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
    PrintWriter err = command.getErr();
    int code;
    if (e instanceof UsageException) {
      err.println(e.getMessage());
      err.print(command.getUsageMessage());
      code = USAGE;
    } else if (e instanceof RmFailure failure) {
      err.println(failure.getMessage());
      code = failure.exitCode();
    } else if (e instanceof SettingsException || e instanceof TlsStoreException) {
      err.println(command.getCommandSpec().qualifiedName() + ": bad setting " + e.getMessage());
      code = BAD_SETTING;
    } else {
      err.println(command.getCommandSpec().qualifiedName() + ": " + e);
      code = FAILED;
    }
    err.flush();
    return code;
  }

  /**
   * What was wrong, naming it. An unknown option is named even when a required one is missing too
   * (often the same option, misspelt); an unknown first word is an unknown command.
   */
  public static String message(ParameterException e) {
    CommandLine command = e.getCommandLine();
    List<String> unmatched = e instanceof UnmatchedArgumentException u ? u.getUnmatched()
        : e instanceof MissingParameterException && command.getParseResult() != null
            ? command.getParseResult().unmatched() : List.of();
    if (unmatched.isEmpty()) return e.getMessage();
    String first = unmatched.get(0);
    if (first.startsWith("-")) return "Unknown option: '" + first + "'";
    if (e instanceof UnmatchedArgumentException && command.getParent() == null && !command.getSubcommands().isEmpty()) {
      return "Unknown command '" + first + "'";
    }
    return e.getMessage();
  }
}
