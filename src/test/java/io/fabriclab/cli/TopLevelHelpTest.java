package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

/** Issue 35 item 19: the top-level help names every transport, lists report's exit code 1, and wraps whole words. */
class TopLevelHelpTest {

    @Test
    void helpNamesTheTransportsWrapsCleanlyAndListsEveryExitCode() {
        StringWriter out = new StringWriter();
        var cl = Main.commandLine("--help");
        cl.setOut(new PrintWriter(out));
        cl.execute("--help");
        String help = out.toString();
        assertTrue(help.contains("RoCEv2, InfiniBand and Ultra Ethernet"), help);
        assertTrue(help.contains("convert          Convert a fabric between formats: FabricLab JSON, containerlab, GraphML,"),
                help);
        for (String line : help.split("\n")) {
            assertFalse(line.stripTrailing().endsWith(", ."), "a line cut before a file ending: " + line);
        }
        assertTrue(help.contains("a failed check (report)"), help);
        assertTrue(help.contains("  3  internal error"), help);
    }
}
