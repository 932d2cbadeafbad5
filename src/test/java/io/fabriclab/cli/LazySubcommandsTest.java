package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * `fabriclab CMD ...` builds picocli's model of CMD only (start-up of short runs,
 * docs/performance.md); everything that lists or suggests commands still sees all of them.
 */
class LazySubcommandsTest {
    @Test
    void aNamedCommandIsTheOnlySubcommandBuilt() {
        CommandLine cl = Main.commandLine("simulate", "x.json", "-o", "y.json");
        assertEquals(List.of("simulate"), List.copyOf(cl.getSubcommands().keySet()));
        assertEquals(List.of("sweep"), List.copyOf(Main.commandLine("sweep", "--help").getSubcommands().keySet()));
    }

    @Test
    void helpVersionNoArgumentsAndUnknownNamesSeeEveryCommand() {
        int all = Main.SUBCOMMANDS.size();
        assertEquals(all, Main.commandLine().getSubcommands().size());
        assertEquals(all, Main.commandLine("--help").getSubcommands().size());
        assertEquals(all, Main.commandLine("help", "report").getSubcommands().size());
        assertEquals(all, Main.commandLine("simulat").getSubcommands().size());
        // Every listed class is a command with a unique name, as the annotation's list was.
        assertEquals(all, Main.commandLine().getSubcommands().keySet().stream().distinct().count());
    }

    @Test
    void aMistypedCommandStillGetsPicocliSuggestion() {
        CliRun r = CliRun.of("simulat", "x.json");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("simulate"), "suggests the command: " + r.err());
    }

    @Test
    void helpOfOneCommandIsTheSameWhetherBuiltAloneOrWithAll() {
        java.io.StringWriter alone = new java.io.StringWriter();
        java.io.StringWriter withAll = new java.io.StringWriter();
        Main.commandLine("report").getSubcommands().get("report").usage(new java.io.PrintWriter(alone));
        Main.commandLine().getSubcommands().get("report").usage(new java.io.PrintWriter(withAll));
        assertEquals(withAll.toString(), alone.toString());
    }
}
