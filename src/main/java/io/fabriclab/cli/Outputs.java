package io.fabriclab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.ContainerlabYaml;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;

import picocli.CommandLine;

/**
 * Every file a command is about to write, checked before the command does any work: an output
 * may not be one of the run's inputs (the same file after resolving links, so {@code -o} can never
 * overwrite the scenario or its fabric), its directory must exist or be creatable and be
 * writable, it may not be a directory nor any other file that is not a regular file (a FIFO, a
 * socket, a device such as /dev/null: replacing one would break the machine), and an existing
 * output may not be read-only. Each command
 * that writes names its inputs and outputs here and calls {@link #check()} before reading
 * further or running anything; a problem is bad input (exit 2) and nothing is written.
 */
final class Outputs {
    private final List<Path> inputs = new ArrayList<>();
    private final List<String[]> problems = new ArrayList<>();
    /** The files to be written, checked by {@link #check()} against every input named by then. */
    private final List<Output> outputs = new ArrayList<>();
    /** The option names and parameter labels that name outputs (not inputs) on the command line. */
    private final java.util.Set<String> outputOptions = new java.util.HashSet<>();
    private CommandLine.Model.CommandSpec commandLine;

    private record Output(String option, Path path) {
    }

    /**
     * A file the command reads (absent ones are ignored: they cannot be overwritten); a containerlab
     * topology brings its annotations side file, which the reader reads too.
     */
    Outputs input(Path in) {
        if (in != null) {
            inputs.add(in);
            if (isContainerlab(in)) {
                inputs.add(ContainerlabYaml.annotationsPath(in));
            }
        }
        return this;
    }

    Outputs inputs(Iterable<Path> in) {
        for (Path p : in) {
            input(p);
        }
        return this;
    }

    /**
     * Every file the command line names (an option or parameter whose value is a path, or a list of
     * paths) is an input, except the ones this object is told are outputs ({@link #file},
     * {@link #fabricFile}, {@link #directory}, by their option name or parameter label): so an
     * option added later ({@code --price-book}) is checked without being remembered here.
     */
    Outputs commandLine(CommandLine.Model.CommandSpec spec) {
        if (spec != null) {
            commandLine = spec;
        }
        return this;
    }

    /** A file the command writes; {@code option} names it in messages ("-o", "--csv"). */
    Outputs file(String option, Path out) {
        if (out != null) {
            outputs.add(new Output(option, out));
            outputOptions.add(option);
        }
        return this;
    }

    /** A fabric file the command writes: a containerlab topology brings its annotations side file. */
    Outputs fabricFile(String option, Path out) {
        file(option, out);
        if (out != null && isContainerlab(out)) {
            file(option, ContainerlabYaml.annotationsPath(out));
        }
        return this;
    }

    private static boolean isContainerlab(Path p) {
        try {
            return FabricFiles.formatOf(p) == FabricFiles.Format.CONTAINERLAB;
        } catch (InputException e) {
            return false;
        }
    }

    /** A fabric reader that notes every fabric file it reads, so a command knows all of its inputs. */
    static FabricReader recording(FabricReader reader, List<Path> read) {
        return new FabricReader() {
            @Override
            public Fabric read(Path file) throws IOException {
                read.add(file);
                return reader.read(file);
            }

            @Override
            public Fabric read(JsonNode inline, String where) throws IOException {
                return reader.read(inline, where);
            }
        };
    }

    /** A directory the command writes {@code names} into; the directory is created if missing. */
    Outputs directory(String option, Path dir, Iterable<String> names) {
        if (dir == null) {
            return this;
        }
        outputOptions.add(option);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            problems.add(new String[] {option, dir.toString(), "exists and is not a directory"});
            return this;
        }
        String why = directoryProblem(dir);
        if (why != null) {
            problems.add(new String[] {option, dir.toString(), why});
            return this;
        }
        for (String n : names) {
            file(option, dir.resolve(n));
        }
        return this;
    }

    /** Throws the first problem found as bad input. */
    void check() {
        if (commandLine != null) {
            inputs(commandLinePaths(commandLine, outputOptions));
        }
        for (Output o : outputs) {
            String why = fileProblem(o.path());
            if (why != null) {
                problems.add(new String[] {o.option(), o.path().toString(), why});
            }
        }
        if (!problems.isEmpty()) {
            String[] p = problems.get(0);
            throw new BadInputException(p[0] + " " + p[1] + ": " + p[2] + "; nothing was written");
        }
    }

    /** The paths given on the command line, but for the options and parameters named in {@code except}. */
    static List<Path> commandLinePaths(CommandLine.Model.CommandSpec spec, java.util.Set<String> except) {
        List<Path> paths = new ArrayList<>();
        for (CommandLine.Model.ArgSpec a : spec.args()) {
            boolean output = a instanceof CommandLine.Model.OptionSpec o
                    ? java.util.Arrays.stream(o.names()).anyMatch(except::contains)
                    : except.contains(a.paramLabel());
            if (output) {
                continue;
            }
            Object v = a.getValue();
            if (v instanceof Path p) {
                paths.add(p);
            } else if (v instanceof Iterable<?> list) {
                for (Object e : list) {
                    if (e instanceof Path p) {
                        paths.add(p);
                    }
                }
            }
        }
        return paths;
    }

    private String fileProblem(Path out) {
        for (Path in : inputs) {
            if (sameFile(out, in)) {
                return "is an input of this run" + (in.equals(out) ? "" : " (" + in + ")")
                        + "; writing it would destroy the input";
            }
        }
        Path target;
        try {
            target = AtomicFiles.writeTarget(out);
        } catch (IOException e) {
            return e.getMessage();
        }
        if (Files.isDirectory(target)) {
            return "is a directory";
        }
        String special = AtomicFiles.notARegularFile(target);
        if (special != null) {
            return special;
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !Files.isWritable(target)) {
            return "is read-only";
        }
        Path parent = target.getParent();
        return parent == null ? null : directoryProblem(parent);
    }

    /** The nearest existing ancestor must be a writable directory (missing ones are created). */
    private static String directoryProblem(Path dir) {
        Path p = dir.toAbsolutePath().normalize();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return "no such directory";
        }
        if (!Files.isDirectory(p)) {
            return p + " is not a directory";
        }
        if (!Files.isWritable(p)) {
            return "directory " + p + " is not writable";
        }
        return null;
    }

    /** The same file after resolving links (hard links too, through the file key). */
    static boolean sameFile(Path a, Path b) {
        try {
            if (Files.exists(a) && Files.exists(b)) {
                return Files.isSameFile(a, b);
            }
            // A link that does not resolve yet cannot point at an existing input.
            return Objects.equals(a.toAbsolutePath().normalize(), b.toAbsolutePath().normalize());
        } catch (IOException e) {
            return false;
        }
    }
}
