package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * `fabriclab --help` lists every command with its whole first sentence (picocli's own list showed
 * only the first source line: "ECMP path counts," and stopped), and `fabriclab gui` on a machine
 * without a display says what is needed and exits 2 (it said "internal error ... This is a bug", 3).
 */
class HelpAndDisplayTest {

    @Test
    void theCommandListShowsWholeSentences() {
        CliRun help = CliRun.of("--help");
        assertEquals(0, help.code());
        String flat = help.out().replaceAll("\\s+", " ");
        // analyze's description spans three source lines; its first sentence ends on the third.
        assertTrue(flat.contains("ECMP path counts, hop counts, bill of materials, failure impact of every link and "
                + "switch, PFC headroom, deadlock check and lint findings."), help.out());
        assertTrue(flat.contains("help Display help information about the specified command."), help.out());
        for (String line : help.out().split("\\R")) {
            assertTrue(line.length() <= Main.HELP_WIDTH, "wider than " + Main.HELP_WIDTH + ": " + line);
        }
    }

    @Test
    void firstSentenceStopsAtAFullStopNotAtAFileEnding() {
        assertEquals("Convert to .json files.", Main.firstSentence("Convert to .json files. Atomically."));
        assertEquals("no stop", Main.firstSentence("no stop"));
    }

    /** A real process without DISPLAY, as a user on a server runs it. */
    @Test
    void guiWithoutADisplaySaysSoAndExitsTwo() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.fabriclab.FabricLab", "gui"));
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "gui without a display did not exit");
        assertEquals(ExitCode.BAD_INPUT, p.exitValue(), out);
        assertTrue(out.contains("no display to open the editor on (DISPLAY is not set)"), out);
        assertTrue(out.contains("xvfb-run ./fabriclab gui"), out);
        assertFalse(out.contains("This is a bug"), out);
    }
}
