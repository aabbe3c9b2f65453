package dev.bobbin.am.shell;

import dev.bobbin.protocol.Resource;

/** The distributed-shell AM's command line: what to run, how many times, in containers of what size. */
public record ShellAmArgs(String shell, int containers, Resource size, int priority) {
  public static final String USAGE =
      "usage: DistributedShellAm --shell CMD --containers N --memory MB --vcores V [--priority P]";

  public ShellAmArgs {
    if (shell == null || shell.isBlank()) throw new UsageException("--shell must not be empty");
    if (containers < 1) throw new UsageException("--containers must be at least 1, was " + containers);
    if (size == null) throw new UsageException("Missing container size");
    if (size.memory() < 1) throw new UsageException("--memory must be at least 1 MB, was " + size.memory());
    if (size.vCores() < 1) throw new UsageException("--vcores must be at least 1, was " + size.vCores());
    if (priority < 0) throw new UsageException("--priority must be >= 0, was " + priority);
  }

  /** @throws UsageException naming the bad or missing option */
  public static ShellAmArgs parse(String... args) {
    String shell = null;
    Integer containers = null;
    Long memory = null;
    Integer vcores = null;
    int priority = 0;
    for (int i = 0; i < args.length; i += 2) {
      String flag = args[i];
      if (i + 1 >= args.length) throw new UsageException("Missing value after " + flag);
      String value = args[i + 1];
      switch (flag) {
        case "--shell" -> shell = value;
        case "--containers" -> containers = (int) number(flag, value);
        case "--memory" -> memory = number(flag, value);
        case "--vcores" -> vcores = (int) number(flag, value);
        case "--priority" -> priority = (int) number(flag, value);
        default -> throw new UsageException("Unknown option " + flag);
      }
    }
    if (shell == null) throw new UsageException("Missing --shell");
    if (containers == null) throw new UsageException("Missing --containers");
    if (memory == null) throw new UsageException("Missing --memory");
    if (vcores == null) throw new UsageException("Missing --vcores");
    return new ShellAmArgs(shell, containers, Resource.of(memory, vcores), priority);
  }

  private static long number(String flag, String value) {
    try {
      long n = Long.parseLong(value.trim());
      if (n > Integer.MAX_VALUE && !flag.equals("--memory")) throw new NumberFormatException();
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(flag + " needs a whole number, got '" + value + "'");
    }
  }

  /** A bad command line; the message says which option. */
  public static final class UsageException extends IllegalArgumentException {
    public UsageException(String message) {
      super(message);
    }
  }
}
