package dev.bobbin.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * The in-process RM logs as a production RM does (INFO, one line per decision), but to a file in
 * the bench's work directory rather than over the figures on the console.
 */
final class BenchLogging {
  private BenchLogging() {}

  static void toFile(Path file) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) return;
    ctx.reset();
    PatternLayoutEncoder enc = new PatternLayoutEncoder();
    enc.setContext(ctx);
    enc.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n");
    enc.start();
    FileAppender<ILoggingEvent> app = new FileAppender<>();
    app.setContext(ctx);
    app.setName("bench-file");
    app.setFile(file.toString());
    app.setAppend(true);
    app.setEncoder(enc);
    app.start();
    Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(app);
    ctx.getLogger("org.apache.pekko").setLevel(Level.WARN);
    ctx.getLogger("slick").setLevel(Level.WARN);
    ctx.getLogger("com.zaxxer").setLevel(Level.WARN);
  }
}
