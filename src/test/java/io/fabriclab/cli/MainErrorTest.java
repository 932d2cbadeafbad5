package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * A JVM Error escaping a command (out of memory, stack overflow) ends as exit code 3 with one clear
 * message, never as a raw stack trace with exit code 1 (which means "findings at error level").
 */
class MainErrorTest {

    @CommandLine.Command(name = "boom")
    static final class Boom implements Runnable {
        @CommandLine.Option(names = "--what")
        String what = "oom";

        @Override
        public void run() {
            if (what.equals("oom")) {
                throw new OutOfMemoryError("Java heap space");
            }
            throw new StackOverflowError();
        }
    }

    private static String[] run(String what) {
        CommandLine cl = new CommandLine(new Boom());
        cl.setExecutionStrategy(Main::executeHandlingErrors);
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("--what", what);
        return new String[] {Integer.toString(code), err.toString()};
    }

    @Test
    void outOfMemoryIsExitThreeWithTheHeapNamed() {
        String[] r = run("oom");
        assertEquals(Integer.toString(ExitCode.INTERNAL), r[0]);
        assertTrue(r[1].startsWith("error: out of memory (Java heap limit "), r[1]);
        // A run larger than the heap is not a bug: the message says what to do, not to report it.
        assertFalse(r[1].contains("This is a bug"), r[1]);
        assertTrue(r[1].contains("FABRICLAB_JAVA_OPTS=-Xmx"), r[1]);
        assertFalse(r[1].contains("\tat "), "no stack trace: " + r[1]);
    }

    @Test
    void stackOverflowIsExitThree() {
        String[] r = run("soe");
        assertEquals(Integer.toString(ExitCode.INTERNAL), r[0]);
        assertTrue(r[1].startsWith("internal error: stack overflow while running 'fabriclab"), r[1]);
        assertFalse(r[1].contains("\tat "), "no stack trace: " + r[1]);
    }

    @Test
    void theRealCommandLineUsesTheHandler() {
        CommandLine cl = Main.commandLine();
        assertTrue(cl.getExecutionStrategy() != null);
        CliRun ok = CliRun.of("--version");
        assertEquals(0, ok.code());
    }
}
