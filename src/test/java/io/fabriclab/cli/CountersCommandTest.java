package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `fabriclab counters` on the shipped samples, against a scenario simulated as `simulate` runs it; bad input exits 2 naming the file. */
class CountersCommandTest {
    static final String FABRIC = "resources/examples/classic-leaf-spine.json";
    static final Path SAMPLES = Path.of("resources/counters/classic-leaf-spine");

    private static List<String> files(String folder) throws Exception {
        List<String> out = new ArrayList<>();
        try (var s = Files.list(SAMPLES.resolve(folder))) {
            s.sorted().forEach(p -> out.add(p.toString()));
        }
        return out;
    }

    @Test
    void measuredBesideSimulatedWithTheLargestDifferencesAndFindings() throws Exception {
        List<String> args = new ArrayList<>(List.of("counters", FABRIC));
        args.addAll(files("sonic-show"));
        args.addAll(files("ethtool"));
        args.addAll(List.of("--map", SAMPLES.resolve("port-map.json").toString(), "--scenario",
                "resources/scenarios/incast-pfc-dcqcn.json", "--quiet"));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(ExitCode.FINDINGS, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("counters: 20 samples, 52 ports of"), r.out());
        assertTrue(r.out().contains("measured / simulated (scenario 8:1 incast"), r.out());
        assertTrue(r.out().matches("(?s).*\\nleaf1:eth1 +0 / 0 +0 / 0 +42\\.0k / \\S+ +- / - +3\\.00 / 0\\n.*"), r.out());
        assertTrue(r.out().contains("largest differences:\n  "), r.out());
        assertTrue(r.out().contains("ERROR COUNTER_LOSSLESS_DROP [leaf1:eth1]"), r.out());
    }

    @Test
    void prometheusAloneMeasuredOnlyListsWhatItDidNotRead() throws Exception {
        List<String> args = new ArrayList<>(List.of("counters", FABRIC));
        args.addAll(files("prometheus"));
        args.addAll(List.of("--map", SAMPLES.resolve("port-map.json").toString()));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertTrue(r.out().contains("names not read (4): sonic_fan_speed_rpm, scrape_duration_seconds_bucket"), r.out());
        assertTrue(r.out().contains("measured, per second:"), r.out());
        assertTrue(r.out().contains("WARNING COUNTER_ECMP_IMBALANCE [leaf2]"), r.out());
    }

    @Test
    void withoutTheMapTheSonicNamesAreListedAsNotMapped() throws Exception {
        List<String> args = new ArrayList<>(List.of("counters", FABRIC));
        args.addAll(files("portstat"));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.out().contains("not mapped to a port (48):"), r.out());
        assertTrue(r.out().contains("leaf1 Ethernet0: leaf1 has no port Ethernet0 (add it to the port map)"), r.out());
    }

    @Test
    void aUrlIsScrapedTwiceAndADeadOneIsBadInput() throws Exception {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", ex -> {
            byte[] b = ("sonic_pfc_tx_frames_total{hostname=\"leaf1\",interface=\"eth9\",priority=\"3\"} "
                    + 1000 * n.incrementAndGet() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.createContext("/broken", ex -> {
            ex.sendResponseHeaders(503, -1);
            ex.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            CliRun r = CliRun.of("counters", FABRIC, base + "/metrics", "--interval", "0.05", "--quiet");
            assertEquals(ExitCode.OK, r.code(), r.err());
            assertTrue(r.out().contains("counters: 2 samples, 1 ports of"), r.out());
            assertTrue(r.out().matches("(?s).*\\nleaf1:eth9 +- +\\S+ +- +- +-\\n.*"), r.out());
            CliRun dead = CliRun.of("counters", FABRIC, base + "/broken", "--interval", "0.05", "--quiet");
            assertEquals(ExitCode.BAD_INPUT, dead.code());
            assertTrue(dead.err().contains("HTTP 503"), dead.err());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void badInputExitsTwoNamingTheFile(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("leaf1.big.txt");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(200L * 1000 * 1000);
        }
        CliRun r = CliRun.of("counters", FABRIC, big.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code());
        assertTrue(r.err().contains(big + ": $: the file is 200.0 MB"), r.err());
        Path map = dir.resolve("map.json");
        Files.writeString(map, "{\"schemaVersion\": 1, \"ports\": {\"leaf1:Ethernet0\": \"leaf1:eth42\"}}");
        CliRun m = CliRun.of("counters", FABRIC, files("portstat").get(0), "--map", map.toString());
        assertEquals(ExitCode.BAD_INPUT, m.code());
        assertTrue(m.err().contains("$.ports[\"leaf1:Ethernet0\"]: names port leaf1:eth42"), m.err());
        assertEquals(ExitCode.BAD_INPUT, CliRun.of("counters", FABRIC, files("portstat").get(0), "--interval", "-1").code());
    }
}
