package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.fabriclab.cli.Main;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;

/**
 * kill -9 and Ctrl-C (SIGINT) in the middle of {@code simulate -o}, {@code generate -o},
 * {@code convert} and the editor's Save (FabricFiles.save): the output is the old file, whole, and
 * no temporary file is left after the next start (the first write of a later process into the
 * directory). The child process ({@link KillableWriter}) stops itself mid-write at a hook and writes a marker; the test
 * kills it only after the marker exists, so the verdict never depends on timing.
 */
class KillDuringWriteTest {
    @TempDir
    Path dir;

    /** What the output held before; what the killed command tried to write over it. */
    private byte[] old;

    @ParameterizedTest
    @ValueSource(strings = {"KILL", "INT"})
    void simulateOutput(String signal) throws Exception {
        Path fabric = dir.resolve("f.json");
        assertEquals(0, Main.run(new String[] {"generate", "leaf-spine", "-o", fabric.toString()}));
        Path scenario = dir.resolve("s.json");
        StringBuilder senders = new StringBuilder();
        for (int i = 2; i <= 32; i++) {
            senders.append(i == 2 ? "" : ", ").append(String.format("\"server%02d:nic0\"", i));
        }
        Files.writeString(scenario, """
                {"schemaVersion": 1, "name": "big incast", "fabric": "f.json", "profile": "pfc-only",
                 "workloads": [{"type": "incast", "senders": [%s], "receiver": "server01:nic0",
                                "bytesPerSender": 200000}]}
                """.formatted(senders));
        Path results = dir.resolve("r.json");
        old = "{\"previous\": \"results\"}\n".getBytes();
        Files.write(results, old);
        killMidWrite(signal, results, "cli", "simulate", scenario.toString(), "-o", results.toString(), "--quiet");
    }

    @ParameterizedTest
    @ValueSource(strings = {"KILL", "INT"})
    void generateOutput(String signal) throws Exception {
        Path out = dir.resolve("g.json");
        assertEquals(0, Main.run(new String[] {"generate", "leaf-spine", "--leaves", "2", "-o", out.toString()}));
        old = Files.readAllBytes(out);
        killMidWrite(signal, out, "cli", "generate", "leaf-spine", "--leaves", "16", "--servers-per-leaf", "16", "-o",
                out.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"KILL", "INT"})
    void convertOutput(String signal) throws Exception {
        // Both fabrics with positions, so containerlab gets its annotations side file.
        Path in = dir.resolve("big.json");
        FabricFiles.save(laidOut(LeafSpineParams.classic().withLeaves(16)), in);
        Path out = dir.resolve("t.clab.yml");
        FabricFiles.save(laidOut(LeafSpineParams.classic().withLeaves(2)), out);
        old = Files.readAllBytes(out);
        byte[] oldAnnotations = Files.readAllBytes(ContainerlabYaml.annotationsPath(out));
        killMidWrite(signal, out, "cli", "convert", in.toString(), out.toString());
        // The pair: the annotations side file is old too (both are renamed only after both are written).
        assertArrayEquals(oldAnnotations, Files.readAllBytes(ContainerlabYaml.annotationsPath(out)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"KILL", "INT"})
    void editorSave(String signal) throws Exception {
        Path out = dir.resolve("edited.json");
        old = "{\"schemaVersion\": 1, \"name\": \"as last saved\"}\n".getBytes();
        Files.write(out, old);
        killMidWrite(signal, out, "save", out.toString());
    }

    private static io.fabriclab.model.Fabric laidOut(LeafSpineParams p) {
        io.fabriclab.model.Fabric f = LeafSpineGenerator.generate(p);
        new io.fabriclab.diagram.TieredLayout().placeMissing(f, f.layout());
        return f;
    }

    private void killMidWrite(String signal, Path output, String... args) throws Exception {
        Path marker = dir.resolve("marker");
        Files.deleteIfExists(marker);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                // As the test JVMs (pom.xml, fabriclab.test.jvm): the child lives about a second, too short for
                // C2's compiles and G1's threads to pay back on the 2-core machine. Neither changes what it writes.
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), KillableWriter.class.getName(), marker.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("child.log").toFile()).start();
        try {
            // A bound for a broken child, not a verdict: the child stops at the hook and waits.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!Files.exists(marker) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(marker), "the child reached the middle of its write; log:\n"
                    + Files.readString(dir.resolve("child.log")));
            Path tmp = Path.of(Files.readString(marker));
            assertTrue(Files.size(tmp) > 0, "the temporary file is partly written");
            assertTrue(AtomicFiles.isTemp(tmp), tmp.toString());
            if (signal.equals("KILL")) {
                p.destroyForcibly();
            } else {
                // Ctrl-C. Where SIGINT is ignored (this JVM was started as a background job of a
                // non-interactive shell, `./fabriclab-test &` in a script), the child inherits that and the
                // JVM installs no handler for it: the signal would do nothing and the child would sleep at
                // its hook. SIGTERM then stands in for it: the JVM ends through the same shutdown hooks.
                String interrupt = SIGINT_IGNORED ? "-TERM" : "-INT";
                new ProcessBuilder("kill", interrupt, Long.toString(p.pid())).start().waitFor();
            }
            assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        } finally {
            p.destroyForcibly();
        }
        assertArrayEquals(old, Files.readAllBytes(output), "the output is the old file, whole");
        if (signal.equals("INT")) {
            assertEquals(List.of(), temps(), "Ctrl-C: the shutdown hook deleted the half-written file");
        }
        // The next start: what the first write of the next process into the directory does
        // (AtomicFilesTest#leftoversOfAWriterThatIsGoneAreDeletedByTheNextWrite runs that path).
        AtomicFiles.cleanStale(dir);
        assertEquals(List.of(), temps(), "no temporary file after the next start");
    }

    private List<String> temps() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(Path::getFileName).map(Path::toString).filter(n -> n.endsWith(AtomicFiles.TEMP_SUFFIX)
                    || n.endsWith(".tmp")).toList();
        }
    }

    /** Whether SIGINT is ignored in this process (Linux: bit 2 of SigIgn in /proc/self/status); children inherit it. */
    private static final boolean SIGINT_IGNORED = sigintIgnored();

    private static boolean sigintIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << (2 - 1))) != 0;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // No /proc (not Linux): SIGINT is sent as asked.
        }
        return false;
    }

    static {
        // java.class.path under surefire may be a manifest-only jar: it carries the whole class path.
        assertFalse(System.getProperty("java.class.path").isEmpty(), File.pathSeparator);
    }
}
