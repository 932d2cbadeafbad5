package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every broken file of the bad-input table (src/test/resources/bad-input, messages checked in
 * io.BadInputTest) through the commands a user runs: exit code 2, a message naming the file, and
 * never a stack trace.
 */
class BadInputCliTest {
    static Stream<Path> brokenFiles() throws IOException {
        return Files.list(Path.of("src/test/resources/bad-input"))
                .filter(p -> !p.getFileName().toString().equals("EXPECTED.txt")).sorted();
    }

    @ParameterizedTest
    @MethodSource("brokenFiles")
    void validateAndAnalyzeExitTwoWithAClearMessage(Path file) {
        for (String cmd : new String[] {"validate", "analyze"}) {
            CliRun r = CliRun.of(cmd, file.toString());
            assertEquals(ExitCode.BAD_INPUT, r.code(), cmd + " " + file + ": " + r.out() + r.err());
            assertTrue(r.err().contains(file.getFileName().toString()), r.err());
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace: " + r.err());
        }
    }
}
