package io.fabriclab.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine;

/**
 * The ranges of numeric options, checked for every command before it runs, as the readers check
 * the fields of a file: a number outside its range (or NaN, or infinite) is bad input (exit 2)
 * naming the option and what is allowed, never a run that cannot end ({@code --duration-us 1e308})
 * or an internal error ({@code --top -5}). Options a generator turns into a fabric are checked by
 * the generator's own limits.
 */
final class OptionBounds {
    /** A closed range and how to say it. */
    record Bound(double min, double max, String allowed) {
    }

    static final Map<String, Bound> BOUNDS = Map.of(
            "--runs", new Bound(1, 1000, "a whole number from 1 to 1000"),
            "--top", new Bound(0, 1_000_000, "a whole number from 0 to 1000000"),
            "--duration-us", new Bound(0, 1e9, "0 (the scenario's own) to 1e9 microseconds"),
            "--frames", new Bound(1, 1_000_000, "a whole number from 1 to 1000000"),
            "--bytes", new Bound(1, 1e15, "a whole number of bytes from 1 to 10^15"));

    private OptionBounds() {
    }

    /** Checks the options given to the command and its subcommands; throws a ParameterException naming the first bad one. */
    static void check(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            for (CommandLine.Model.OptionSpec o : p.matchedOptions()) {
                Bound b = BOUNDS.get(o.longestName());
                if (b == null) {
                    continue;
                }
                Object v = o.getValue();
                for (Object x : v instanceof List<?> l ? l : List.of(v == null ? "" : v)) {
                    if (x instanceof Number n && !(Double.isFinite(n.doubleValue()) && n.doubleValue() >= b.min()
                            && n.doubleValue() <= b.max())) {
                        throw new CommandLine.ParameterException(p.commandSpec().commandLine(), String.format(Locale.ROOT,
                                "%s %s is not allowed; allowed: %s", o.longestName(), x, b.allowed()));
                    }
                }
            }
        }
    }
}
