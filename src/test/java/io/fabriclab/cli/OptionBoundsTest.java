package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Numeric options are bounded like the fields of a file: out of range is exit 2 naming the option. */
class OptionBoundsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "analyze|resources/examples/leaf-spine-2x4-100g.json|--top|-5|--top -5 is not allowed; allowed: a whole number from 0 to 1000000",
            "report|resources/scenarios/incast-dcqcn-no-pfc.json|--duration-us|1e308|--duration-us 1.0E308 is not allowed; allowed: 0 (the scenario's own) to 1e9 microseconds",
            "report|resources/scenarios/incast-dcqcn-no-pfc.json|--duration-us|-1|--duration-us -1.0 is not allowed",
            "report|resources/scenarios/incast-dcqcn-no-pfc.json|--duration-us|NaN|--duration-us NaN is not allowed",
            "bench sim|-|--runs|0|--runs 0 is not allowed; allowed: a whole number from 1 to 1000",
            "bench sim|-|--runs|-1|--runs -1 is not allowed",
            // Item 9 of issue 31: a unit count the generator refuses was an internal error (exit 3).
            "bench foundation|-|--units|0|--units must be at least 1, was 0",
            "bench report|-|--units|-3|--units must be at least 1, was -3",
    })
    void outOfRangeOptionsAreBadInput(String command, String input, String option, String value, String message,
                                      @TempDir Path dir) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(command.split(" ")));
        if (!input.equals("-")) {
            args.add(input);
        }
        args.add(option);
        args.add(value);
        if (command.equals("report")) {
            args.add("--simulate");
            args.add("-o");
            args.add(dir.resolve("r.html").toString());
        }
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(message), r.err());
        assertFalse(r.err().contains("internal error"), r.err());
        assertFalse(Files.exists(dir.resolve("r.html")));
    }

    /** Item 12 of issue 31: report --duration-us without --simulate was silently ignored. */
    @Test
    void reportDurationWithoutSimulateIsRefused(@TempDir Path dir) {
        CliRun r = CliRun.of("report", "resources/scenarios/incast-dcqcn-no-pfc.json", "--duration-us", "50", "-o",
                dir.resolve("r.html").toString(), "--quiet");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--duration-us applies to the run --simulate makes"), r.err());
        assertFalse(Files.exists(dir.resolve("r.html")));
    }

    @Test
    void aNameStartingWithTheOldStatusMarkerIsJustText(@TempDir Path dir) throws Exception {
        // The report once marked coloured status cells with a leading U+0001 inside the cell text; a
        // finding about a fabric whose name started with it crashed the report (exit 3).
        String json = Files.readString(Path.of("resources/examples/leaf-spine-2x4-100g.json"))
                .replace("\"name\": \"leaf-spine-2x4-100g\"", "\"name\": \"\\u0001WARN lab\"");
        Path f = dir.resolve("f.json");
        Files.writeString(f, json);
        Path out = dir.resolve("r.html");
        CliRun r = CliRun.of("report", f.toString(), "-o", out.toString(), "--quiet");
        assertEquals(ExitCode.OK, r.code(), r.out() + r.err());
        assertTrue(Files.readString(out).contains("WARN lab"));
    }
}
