package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.sweep.RunRow;
import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;

/**
 * A sweep killed with SIGKILL in the middle, run again: no finished run repeated, no partial file,
 * the same summary as an uninterrupted sweep. The child JVM is stopped at a known place (the
 * fabriclab.sweep.holdAfterWrites hook: its workers block once 3 run files are written, while the
 * others are still simulating or waiting to write), then killed; nothing here depends on timing.
 */
class SweepKillResumeTest {
    static final int WRITTEN_BEFORE_KILL = 3;

    @Test
    // A guard, not a measure: a child that can never reach its third file (a failed write leaves its
    // held workers and its queue stuck) fails the test instead of hanging the suite.
    @org.junit.jupiter.api.Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aKilledSweepResumesWithoutRepeatingAFinishedRun(@TempDir Path tmp) throws Exception {
        String scenario = Path.of("resources/scenarios/ecn-too-high.json").toAbsolutePath().toString().replace("\\", "\\\\");
        Path sweep = tmp.resolve("kmin.json");
        // 4 points x 2 seeds = 8 runs.
        Files.writeString(sweep, "{\"schemaVersion\": 1, \"scenario\": \"" + scenario + "\", \"parameters\": ["
                + "{\"path\": \"qos.ecn.classes.3.kminBytes\", \"values\": [20000, 50000, 100000, 200000]},"
                + "{\"path\": \"qos.ecn.classes.3.kmaxBytes\", \"values\": [400000]}],"
                + "\"seeds\": [1, 2], \"metrics\": [\"fctP99Us\", \"pausedUs\", \"drops\"]}");
        Path dir = tmp.resolve("killed");
        Path runs = dir.resolve(SweepRunner.RUNS_DIR);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The serial collector and C1 only, as the test JVMs (pom.xml, fabriclab.test.jvm): a short-lived child.
        Process child = new ProcessBuilder(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dfabriclab.sweep.holdAfterWrites=" + WRITTEN_BEFORE_KILL,
                "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), "io.fabriclab.FabricLab",
                "sweep", sweep.toString(), "-o", dir.toString(), "--workers", "2", "--quiet")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
        long childPid = child.pid();
        try {
            // Wait (no time limit but the test's) until the child has written its 3 files and holds.
            while (runFiles(runs).size() < WRITTEN_BEFORE_KILL) {
                if (!child.isAlive()) {
                    fail("the child sweep ended before it was killed: " + Files.readString(tmp.resolve("child.log")));
                }
                Thread.sleep(50);
            }
            assertTrue(child.isAlive(), "the child holds after its third run file");
        } finally {
            child.destroyForcibly(); // SIGKILL on Unix: no shutdown hook runs
            child.waitFor(60, TimeUnit.SECONDS);
        }
        assertFalse(child.isAlive());
        assertEquals(137, child.exitValue(), "killed by SIGKILL (128 + 9)");
        List<Path> before = runFiles(runs);
        assertEquals(WRITTEN_BEFORE_KILL, before.size());
        Map<Path, byte[]> bytesBefore = new HashMap<>();
        for (Path p : before) {
            bytesBefore.put(p, Files.readAllBytes(p));
            assertEquals(childPid + "@", RunRow.fromJson(bytesBefore.get(p)).ranBy().replaceAll("@.*", "@"));
        }
        assertFalse(Files.exists(dir.resolve(SweepSummary.POINTS_CSV)), "no summary from the killed sweep");

        CliRun resumed = CliRun.of("sweep", sweep.toString(), "-o", dir.toString(), "--workers", "2", "--no-charts");
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.out().contains("8 runs (5 run now, 3 already done, 0 not ok)"), resumed.out());
        for (Path p : before) {
            assertArrayEquals(bytesBefore.get(p), Files.readAllBytes(p), "a finished run is never written again: " + p);
        }
        long mine = ProcessHandle.current().pid();
        for (Path p : runFiles(runs)) {
            String by = RunRow.fromJson(Files.readAllBytes(p)).ranBy().replaceAll("@.*", "");
            assertTrue(by.equals(String.valueOf(childPid)) || by.equals(String.valueOf(mine)), by);
            assertEquals(bytesBefore.containsKey(p), by.equals(String.valueOf(childPid)), "who ran " + p);
        }
        assertEquals(8, runFiles(runs).size());
        try (Stream<Path> all = Files.walk(dir)) {
            assertEquals(List.of(), all.filter(p -> AtomicFiles.isTemp(p) || p.getFileName().toString().endsWith(".tmp")).toList(),
                    "no partial file left");
        }

        Path clean = tmp.resolve("uninterrupted");
        CliRun whole = CliRun.of("sweep", sweep.toString(), "-o", clean.toString(), "--workers", "1", "--no-charts");
        assertEquals(0, whole.code(), whole.err());
        assertTrue(whole.out().contains("8 runs (8 run now, 0 already done, 0 not ok)"), whole.out());
        for (String f : SweepSummary.DETERMINISTIC_FILES) {
            assertEquals(Files.readString(clean.resolve(f)), Files.readString(dir.resolve(f)), f + " differs");
        }
    }

    static List<Path> runFiles(Path runs) throws Exception {
        if (!Files.isDirectory(runs)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(runs)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json") && !AtomicFiles.isTemp(p)).sorted().toList();
        }
    }
}
