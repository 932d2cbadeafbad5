package io.fabriclab.cli;

import java.io.PrintWriter;

import io.fabriclab.model.Version;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The `fabriclab` command line: one subcommand per task, each with --help. */
@Command(name = "fabriclab",
        mixinStandardHelpOptions = true,
        versionProvider = Main.VersionProvider.class,
        description = "Design, analyse and simulate RoCEv2 GPU-cluster fabrics.",
        footerHeading = "%nExit codes:%n",
        footer = {"  0  ok", "  1  findings at error level (analyze, validate)",
                "  2  bad input (unreadable or invalid file, bad option)", "  3  internal error"},
        subcommands = {GuiCommand.class, GenerateCommand.class, AnalyzeCommand.class, ValidateCommand.class,
                ConvertCommand.class, SimulateCommand.class, ExportConfigCommand.class, ReportCommand.class, BenchCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // No subcommand: show usage.
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Builds the command line (tests call this to run commands in-process). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler(new ErrorHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    public static int run(String[] args) {
        return commandLine().execute(args);
    }

    /** Turns exceptions into exit codes and one clear message; a stack trace only for bugs. */
    static final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
            PrintWriter err = cl.getErr();
            if (ex instanceof BadInputException || ex instanceof io.fabriclab.io.InputException
                    || ex instanceof java.io.IOException) {
                err.println(ex instanceof java.nio.file.NoSuchFileException ? "error: no such file: " + ex.getMessage()
                        : "error: " + ex.getMessage());
                return ExitCode.BAD_INPUT;
            }
            err.println("internal error: " + ex);
            err.println("This is a bug in FabricLab " + Version.get() + "; please report it with the command you ran.");
            if (Boolean.getBoolean("fabriclab.debug")) {
                ex.printStackTrace(err);
            }
            return ExitCode.INTERNAL;
        }
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"FabricLab " + Version.get(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
