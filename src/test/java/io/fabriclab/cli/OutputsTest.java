package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No command writes over one of its own inputs (the same file after resolving links), and every
 * output is checked before the run: a bad one is exit 2 with nothing written and nothing run.
 */
class OutputsTest {
    @TempDir
    Path dir;
    Path fabric;
    Path scenario;
    byte[] fabricBytes;
    byte[] scenarioBytes;

    @BeforeEach
    void files() throws Exception {
        fabric = dir.resolve("f.json");
        assertEquals(0, CliRun.of("generate", "leaf-spine", "-o", fabric.toString()).code());
        scenario = dir.resolve("s.json");
        Files.writeString(scenario, """
                {"schemaVersion": 1, "name": "t", "fabric": "f.json", "profile": "pfc-only",
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 100000}]}
                """);
        fabricBytes = Files.readAllBytes(fabric);
        scenarioBytes = Files.readAllBytes(scenario);
    }

    private void assertInputsUntouched() throws Exception {
        assertArrayEquals(fabricBytes, Files.readAllBytes(fabric), "the fabric is intact");
        assertArrayEquals(scenarioBytes, Files.readAllBytes(scenario), "the scenario is intact");
    }

    @Test
    void simulateRefusesToWriteOverItsScenario() throws Exception {
        CliRun r = CliRun.of("simulate", scenario.toString(), "-o", scenario.toString(), "--quiet");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-o " + scenario + ": is an input of this run"), r.err());
        assertInputsUntouched();
    }

    @Test
    void simulateRefusesToWriteOverTheFabricItResolves() throws Exception {
        CliRun r = CliRun.of("simulate", scenario.toString(), "-o", fabric.toString(), "--quiet");
        assertEquals(2, r.code(), r.err());
        assertInputsUntouched();
    }

    @Test
    void aLinkToAnInputIsTheInput() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("results.json"), fabric);
        Path linkDir = Files.createSymbolicLink(dir.resolve("alias"), dir);
        for (Path out : new Path[] {link, linkDir.resolve("s.json"), dir.resolve("sub/../s.json")}) {
            CliRun r = CliRun.of("simulate", scenario.toString(), "-o", out.toString(), "--quiet");
            assertEquals(2, r.code(), out + ": " + r.err());
        }
        Path hard = Files.createLink(dir.resolve("hard.json"), scenario);
        assertEquals(2, CliRun.of("simulate", scenario.toString(), "-o", hard.toString(), "--quiet").code());
        assertInputsUntouched();
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void aCsvDirectoryThatIsAFileIsRefusedBeforeTheRun() throws Exception {
        Path csv = Files.writeString(dir.resolve("csv"), "a file");
        Path results = dir.resolve("r.json");
        CliRun r = CliRun.of("simulate", scenario.toString(), "-o", results.toString(), "--csv", csv.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--csv " + csv + ": exists and is not a directory"), r.err());
        assertFalse(Files.exists(results), "checked before the run: no results were written");
        assertFalse(r.err().contains("events/s"), "the simulation never started: " + r.err());
    }

    @Test
    void anUnwritableOutputIsFoundBeforeTheRun() throws Exception {
        // A regular file where the output's directory should be (as root, permissions cannot show this).
        Path notADir = Files.writeString(dir.resolve("plain"), "x");
        Path out = notADir.resolve("r.json");
        CliRun r = CliRun.of("simulate", scenario.toString(), "-o", out.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-o " + out + ": " + notADir + " is not a directory"), r.err());
        assertFalse(r.err().contains("events/s"), "the simulation never started: " + r.err());
        assertFalse(r.err().contains(".tmp"), "the message names the output, not a temporary file: " + r.err());
    }

    @Test
    void convertRefusesToWriteOverItsInput() throws Exception {
        CliRun r = CliRun.of("convert", fabric.toString(), fabric.toString());
        assertEquals(2, r.code(), r.err());
        Path clab = dir.resolve("t.clab.yml");
        assertEquals(0, CliRun.of("convert", fabric.toString(), clab.toString()).code());
        Path link = Files.createSymbolicLink(dir.resolve("copy.clab.yml"), clab);
        byte[] before = Files.readAllBytes(clab);
        assertEquals(2, CliRun.of("convert", link.toString(), clab.toString()).code());
        assertArrayEquals(before, Files.readAllBytes(clab));
        assertInputsUntouched();
    }

    @Test
    void reportRefusesToWriteOverAnInput() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("review.html"), scenario);
        CliRun r = CliRun.of("report", scenario.toString(), "-o", link.toString(), "--quiet");
        assertEquals(2, r.code(), r.err());
        assertInputsUntouched();
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void exportConfigRefusesToWriteOverItsFabric() throws Exception {
        // A fabric named like the SONiC file of one of its switches, in the output directory.
        Path named = dir.resolve("leaf1.config_db.json");
        Files.copy(fabric, named);
        CliRun r = CliRun.of("export-config", named.toString(), "--vendor", "sonic", "-o", dir.toString());
        assertEquals(2, r.code(), r.err());
        assertArrayEquals(fabricBytes, Files.readAllBytes(named));
        assertFalse(Files.exists(dir.resolve("leaf2.config_db.json")), "nothing was written");
    }

    @Test
    void generateChecksItsOutputBeforeGenerating() throws Exception {
        Path notADir = Files.writeString(dir.resolve("plain"), "x");
        CliRun r = CliRun.of("generate", "leaf-spine", "-o", notADir.resolve("g.json").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-o " + notADir.resolve("g.json") + ":"), r.err());
        assertFalse(r.err().contains(".tmp"), r.err());
    }

    @Test
    void aGoodRunStillWritesThroughASymlinkedOutput() throws Exception {
        Path real = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("latest.json"), real);
        CliRun r = CliRun.of("simulate", scenario.toString(), "-o", link.toString(), "--quiet",
                "--csv", dir.resolve("csv").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertTrue(Files.readString(real).contains("fabriclab-results"), "its target holds the results");
        assertTrue(Files.exists(dir.resolve("csv/flows.csv")));
    }

    /** Item 1 of issue 31: -o naming a FIFO or a device replaced it with a regular file, exit 0. */
    @Test
    void anOutputThatIsNotARegularFileIsRefusedBeforeTheRun() throws Exception {
        Path fifo = dir.resolve("results.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        CliRun r = CliRun.of("simulate", scenario.toString(), "-o", fifo.toString(), "--quiet");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-o " + fifo + ": is not a regular file"), r.err());
        assertFalse(Files.isRegularFile(fifo), "the FIFO is still a FIFO");
        CliRun g = CliRun.of("generate", "leaf-spine", "-o", fifo.toString());
        assertEquals(2, g.code(), g.err());
        assertFalse(Files.isRegularFile(fifo));
    }

    /** Item 2 of issue 31: outputs were checked against some inputs only (the price book was overwritten). */
    @Test
    void noOutputMayBeThePriceBook() throws Exception {
        Path book = Files.writeString(dir.resolve("pb.json"), "{\"schemaVersion\": 1}");
        byte[] bookBytes = Files.readAllBytes(book);
        CliRun c = CliRun.of("compare", scenario.toString(), "-o", book.toString(), "--price-book", book.toString(), "--quiet");
        assertEquals(2, c.code(), c.err());
        assertTrue(c.err().contains("-o " + book + ": is an input of this run"), c.err());
        Path htmlBook = Files.writeString(dir.resolve("pb.html"), "{}");
        Path link = Files.createSymbolicLink(dir.resolve("review.html"), htmlBook);
        CliRun r = CliRun.of("report", fabric.toString(), "-o", link.toString(), "--price-book", htmlBook.toString(), "--quiet");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("is an input of this run"), r.err());
        assertArrayEquals(bookBytes, Files.readAllBytes(book));
        assertEquals("{}", Files.readString(htmlBook));
        assertInputsUntouched();
    }

    /** Item 2 of issue 31: {@code sweep -o .} overwrote a scenario named summary.json. */
    @Test
    void aSweepNeverWritesOverItsScenarioOrFabric() throws Exception {
        Path named = Files.copy(scenario, dir.resolve("summary.json"));
        Path sweep = Files.writeString(dir.resolve("sw.json"), """
                {"schemaVersion": 1, "scenario": "summary.json", "metrics": ["fctP99Us"],
                 "parameters": [{"path": "seed", "values": [1]}]}
                """);
        CliRun r = CliRun.of("sweep", sweep.toString(), "-o", dir.toString(), "--quiet", "--workers", "1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-o " + named + ": is an input of this run"), r.err());
        assertArrayEquals(scenarioBytes, Files.readAllBytes(named));
        assertFalse(Files.exists(dir.resolve("runs")), "nothing was run");
    }

    /** Item 2 of issue 31: tune's recommended fabric may not overwrite the fabric it tunes. */
    @Test
    void tuneNeverWritesOverItsFabric() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("t"));
        Path fab = Files.copy(fabric, sub.resolve("recommended-fabric.json"));
        Path sc = Files.writeString(sub.resolve("s.json"), Files.readString(scenario).replace("f.json", "recommended-fabric.json"));
        CliRun r = CliRun.of("tune", sc.toString(), "-o", sub.toString(), "--objective", "fctP99Us", "--budget", "1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-o " + fab + ": is an input of this run"), r.err());
        assertArrayEquals(fabricBytes, Files.readAllBytes(fab));
    }
}
