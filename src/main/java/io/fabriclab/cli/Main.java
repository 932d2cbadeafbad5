package io.fabriclab.cli;

import java.io.PrintWriter;
import java.util.List;

import io.fabriclab.io.TerminalText;
import io.fabriclab.model.Version;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The `fabriclab` command line: one subcommand per task, each with --help. */
@Command(name = "fabriclab",
        mixinStandardHelpOptions = true,
        versionProvider = Main.VersionProvider.class,
        description = "Design, analyse and simulate GPU-cluster fabrics: RoCEv2, InfiniBand and Ultra Ethernet.",
        footerHeading = "%nExit codes:%n",
        footer = {"  0  ok", "  1  findings at error level (analyze, validate); a failed check (report)",
                "  2  bad input (unreadable or invalid file, bad option)", "  3  internal error"})
public final class Main implements Runnable {
    /**
     * The subcommands in the order help lists them. They are added by {@link #commandLine(String...)}
     * rather than through the annotation, so that a run of one command builds picocli's model of that
     * command only: building all thirteen took about a third of a second of a short run's start-up
     * (docs/performance.md, "Whole-process runs").
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(GuiCommand.class, GenerateCommand.class, NewCommand.class, DescribeCommand.class, AnalyzeCommand.class,
            ValidateCommand.class, ConvertCommand.class, SimulateCommand.class, CompareCommand.class, ExportConfigCommand.class,
            ReportCommand.class, SweepCommand.class, TuneCommand.class, BenchCommand.class, CountersCommand.class,
            CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // No subcommand: show usage.
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Builds the command line with every subcommand (tests call this to run commands in-process). */
    public static CommandLine commandLine() {
        return commandLine(new String[0]);
    }

    /**
     * Builds the command line for these arguments: when the first names a subcommand (other than
     * {@code help}), only that subcommand is added, else all of them (help, the command list, and
     * picocli's suggestions for a mistyped name need every one).
     */
    public static CommandLine commandLine(String... arguments) {
        CommandLine cl = new CommandLine(new Main());
        Class<?> only = arguments.length == 0 ? null : subcommandNamed(arguments[0]);
        for (Class<?> c : SUBCOMMANDS) {
            if (only == null || c == only) {
                cl.addSubcommand(c); // picocli makes the instance, as it did for the annotation's list
            }
        }
        cl.setExecutionExceptionHandler(new ErrorHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionStrategy(Main::executeHandlingErrors);
        // Help as wide as the terminal (picocli asks it when there is one), 100 columns otherwise,
        // and every command's whole first sentence in the command lists (picocli's own list shows
        // only the first line of a description, cut mid-sentence).
        cl.setUsageHelpWidth(HELP_WIDTH);
        cl.setUsageHelpAutoWidth(true);
        setCommandList(cl);
        CommandLine.IParameterExceptionHandler usageErrors = cl.getParameterExceptionHandler();
        cl.setParameterExceptionHandler((ex, args) -> {
            // Option errors echo what the user typed, which may hold escape sequences too.
            terminalSafe(ex.getCommandLine());
            return usageErrors.handleParseException(ex, args);
        });
        return cl;
    }

    /** Routes everything the command line prints through {@link TerminalText} (set on the whole hierarchy). */
    static void terminalSafe(CommandLine any) {
        CommandLine root = any;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        root.setOut(TerminalText.safe(root.getOut()));
        root.setErr(TerminalText.safe(root.getErr()));
    }

    /**
     * Runs the command, turning a JVM {@link Error} (out of memory, stack overflow) into exit code 3
     * and one clear message instead of a raw stack trace with exit code 1 (which means "findings").
     * Inputs are bounded before they are built, so reaching this is a bug; the message says what
     * ran out and how to give Java more.
     */
    static int executeHandlingErrors(CommandLine.ParseResult parsed) {
        terminalSafe(parsed.commandSpec().commandLine());
        OptionBounds.check(parsed);
        try {
            return new CommandLine.RunLast().execute(parsed);
        } catch (VirtualMachineError e) {
            PrintWriter err = parsed.commandSpec().commandLine().getErr();
            err.println(errorMessage(e, commandName(parsed)));
            if (Boolean.getBoolean("fabriclab.debug")) {
                e.printStackTrace(err);
            }
            err.flush();
            return ExitCode.INTERNAL;
        }
    }

    static String errorMessage(VirtualMachineError e, String command) {
        String what;
        if (e instanceof OutOfMemoryError) {
            long maxMb = Runtime.getRuntime().maxMemory() >> 20;
            // Not a bug: the input asks for more than this heap (a whole cluster on a small -Xmx).
            return "error: out of memory (Java heap limit " + maxMb + " MB) while running '" + command + "'. The input "
                    + "or the run is larger than this heap holds: make it smaller, or give Java more memory, e.g. "
                    + "FABRICLAB_JAVA_OPTS=-Xmx" + Math.max(2, 2 * ((maxMb + 1023) / 1024)) + "g";
        } else if (e instanceof StackOverflowError) {
            what = "stack overflow while running '" + command + "' (an algorithm recursed too deep for this input)";
        } else {
            what = e.getClass().getSimpleName() + " while running '" + command + "': " + e.getMessage();
        }
        return "internal error: " + what + "\nThis is a bug in FabricLab " + Version.get()
                + "; please report it with the command you ran.";
    }

    private static String commandName(CommandLine.ParseResult parsed) {
        StringBuilder sb = new StringBuilder("fabriclab");
        for (CommandLine.ParseResult p = parsed.subcommand(); p != null; p = p.subcommand()) {
            sb.append(' ').append(p.commandSpec().name());
        }
        return sb.toString();
    }

    static final int HELP_WIDTH = 100;

    private static void setCommandList(CommandLine cl) {
        if (!cl.getSubcommands().isEmpty()) {
            cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, Main::commandList);
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            setCommandList(sub);
        }
    }

    /** The command list: each subcommand with the first sentence of its header or description, wrapped. */
    static String commandList(CommandLine.Help help) {
        java.util.Map<String, CommandLine.Help> subs = help.subcommands();
        if (subs.isEmpty()) {
            return "";
        }
        int nameWidth = subs.keySet().stream().mapToInt(String::length).max().orElse(0) + 4;
        int width = help.commandSpec().usageMessage().width();
        CommandLine.Help.TextTable table = CommandLine.Help.TextTable.forColumns(help.colorScheme(),
                new CommandLine.Help.Column(nameWidth, 2, CommandLine.Help.Column.Overflow.SPAN),
                new CommandLine.Help.Column(Math.max(20, width - nameWidth), 2, CommandLine.Help.Column.Overflow.WRAP));
        for (java.util.Map.Entry<String, CommandLine.Help> e : subs.entrySet()) {
            // The header when a command has one (picocli's help command), else the description.
            String header = e.getValue().header().strip();
            table.addRowValues(e.getKey(), firstSentence(header.isEmpty() ? e.getValue().description() : header));
        }
        return table.toString();
    }

    /** The description up to its first full stop followed by a space or the end ({@code .json} is no stop). */
    static String firstSentence(String description) {
        String flat = description.strip().replaceAll("\\s+", " ");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[.](\\s|$)").matcher(flat);
        return m.find() ? flat.substring(0, m.start() + 1) : flat;
    }

    public static int run(String[] args) {
        return commandLine(args).execute(args);
    }

    /** The subcommand named {@code name}; null for {@code help} and for no subcommand. */
    static Class<?> subcommandNamed(String name) {
        for (Class<?> c : SUBCOMMANDS) {
            if (c != CommandLine.HelpCommand.class && c.getAnnotation(Command.class).name().equals(name)) {
                return c;
            }
        }
        return null;
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
