package io.fabriclab.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;

/** Each counters format read from its shipped sample and from small texts: values, resets, unknown names, unmapped ports, bad lines. */
class CountersReadersTest {
    static final Path SAMPLES = Path.of("resources/counters/classic-leaf-spine");
    static final Path FABRIC = Path.of("resources/examples/classic-leaf-spine.json");

    static Fabric fabric() throws InputException {
        return FabricFiles.load(FABRIC);
    }

    private static double value(CounterSample s, String iface, int prio, CounterKind k) {
        Double v = s.values().get(new Reading.Key(s.readings().get(0).device(), iface, prio, k));
        return v == null ? Double.NaN : v;
    }

    // ---------------------------------------------------------------- Prometheus

    @Test
    void prometheusSampleReadsLabelsTimestampsAndListsUnknownMetrics() throws Exception {
        CounterSample s = CountersFile.of(SAMPLES.resolve("prometheus/fabric.t0.prom").toString()).read();
        assertEquals(CountersFormat.PROMETHEUS, s.format());
        assertEquals(Instant.parse("2025-11-28T10:00:00Z"), s.time(), "the samples' timestamps (ms) give the time");
        Reading r = s.readings().stream().filter(x -> x.device().equals("leaf1") && x.iface().equals("Ethernet4")
                && x.kind() == CounterKind.PFC_TX && x.priority() == 3).findFirst().orElseThrow();
        assertTrue(r.value() > 0);
        // node_exporter's instance label is host:port; the port is dropped.
        assertTrue(s.readings().stream().anyMatch(x -> x.device().equals("server01") && x.kind() == CounterKind.CNP_SENT));
        assertTrue(s.unknown().contains("sonic_fan_speed_rpm"), s.unknown().toString());
        assertTrue(s.unknown().contains("scrape_duration_seconds_bucket"), "a histogram is listed, not read");
    }

    @Test
    void prometheusGrammarEscapesSpecialValuesAndTrailingComma() throws Exception {
        String text = """
                # HELP x_pfc_rx_frames_total with "quotes" in help
                # TYPE x_pfc_rx_frames_total counter
                x_pfc_rx_frames_total{hostname="a\\"b",interface="Ethernet0",priority="3",} 12
                x_pfc_rx_frames_total{hostname="h",interface="Ethernet4",priority="3"} NaN
                x_pfc_rx_frames_total{hostname="h",interface="Ethernet8",priority="3"} +Inf
                x_pfc_rx_frames_total{hostname="h",interface="Ethernet12",priority="3"} 1.5e3 1700000000000
                # EOF
                garbage after EOF is not read
                """;
        CounterSample s = PrometheusText.parse(text, "t.prom", null);
        assertEquals(2, s.readings().size(), "NaN and +Inf are no counter values");
        assertEquals("a\"b", s.readings().get(0).device());
        assertEquals(1500, s.readings().get(1).value());
        assertEquals(Instant.ofEpochMilli(1_700_000_000_000L), s.time());
    }

    @Test
    void prometheusMalformedLinesAreNamedByFileAndLine() {
        String text = "ok_pfc_rx_total{interface=\"e0\"} 1\nbad{interface=\"e0\" 1\n9starts_with_digit 2\nx_pfc_rx_total{interface=\"e0\"} twelve\n";
        InputException e = assertThrows(InputException.class, () -> PrometheusText.parse(text, "scrape.prom", "h"));
        String m = e.getMessage();
        assertTrue(m.contains("scrape.prom: line 2:"), m);
        assertTrue(m.contains("scrape.prom: line 3:"), m);
        assertTrue(m.contains("scrape.prom: line 4:") && m.contains("twelve"), m);
        assertEquals(3, e.problems().size(), "every bad line, not only the first");
    }

    // ---------------------------------------------------------------- SONiC show

    @Test
    void sonicShowSampleReadsAllFourTables() throws Exception {
        CounterSample s = CountersFile.of(SAMPLES.resolve("sonic-show/leaf1.show.t0.txt").toString()).read();
        assertEquals(CountersFormat.SONIC_SHOW, s.format());
        assertEquals("leaf1", s.readings().get(0).device(), "the device is the file name up to its first dot");
        assertEquals(Instant.parse("2025-11-28T10:00:00Z"), s.time(), "the # time: line");
        assertEquals(2_968_000, value(s, "Ethernet4", 3, CounterKind.PFC_TX), "Port Tx PFC3 with thousands commas");
        assertEquals(0, value(s, "Ethernet4", 3, CounterKind.PFC_RX));
        assertTrue(value(s, "Ethernet0", 3, CounterKind.ECN_MARKED) > 0, "EcnMarked/pkts of UC3");
        assertEquals(1_450_000, value(s, "Ethernet0", 3, CounterKind.QUEUE_WATERMARK));
        assertEquals(870_000, value(s, "Ethernet0", 3, CounterKind.PG_WATERMARK));
    }

    @Test
    void sonicShowAsSonicPrintsIt() throws Exception {
        // sonic-utilities' own test output (tests/pfcstat_test.py, queue counters with N/A).
        String text = """
                  Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7
                ---------  ------  ------  ------  ------  ------  ------  ------  ------
                Ethernet0   1,200     201     202     203     204     205     206     207

                  Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7
                ---------  ------  ------  ------  ------  ------  ------  ------  ------
                Ethernet0     100     200     300     400     500     600     700     800

                For namespace :
                     Port    TxQ    Counter/pkts    Counter/bytes    Drop/pkts    Drop/bytes
                ---------  -----  --------------  ---------------  -----------  ------------
                Ethernet0    UC3              68               30          N/A            74
                Ethernet0    MC11              2               10            1             0
                """;
        CounterSample s = SonicShow.parse(text, "x.txt", "leaf1");
        Map<Reading.Key, Double> v = s.values();
        assertEquals(1200, v.get(new Reading.Key("leaf1", "Ethernet0", 0, CounterKind.PFC_RX)));
        assertEquals(400, v.get(new Reading.Key("leaf1", "Ethernet0", 3, CounterKind.PFC_TX)));
        assertEquals(40, v.get(new Reading.Key("leaf1", "Ethernet0", 3, CounterKind.TX_BYTES)), "UC3 and MC11 (class 3) summed");
        assertEquals(1, v.get(new Reading.Key("leaf1", "Ethernet0", 3, CounterKind.DROPS)), "N/A skipped");
    }

    @Test
    void sonicShowBadRowsNameTheLine() {
        String text = """
                  Port Rx    PFC0    PFC1
                ---------  ------  ------
                Ethernet0       1       2
                Ethernet4       1
                Ethernet8       x       2
                """;
        InputException e = assertThrows(InputException.class, () -> SonicShow.parse(text, "leaf1.pfc.txt", "leaf1"));
        assertTrue(e.getMessage().contains("leaf1.pfc.txt: line 4: this row has 2 columns"), e.getMessage());
        assertTrue(e.getMessage().contains("leaf1.pfc.txt: line 5: column PFC0 of Ethernet8 is not a counter value"), e.getMessage());
    }

    // ---------------------------------------------------------------- portstat -j

    @Test
    void portstatSampleReadsPacketsAndDropsAndItsTime() throws Exception {
        CounterSample s = CountersFile.of(SAMPLES.resolve("portstat/leaf1.portstat.t1.json").toString()).read();
        assertEquals(CountersFormat.PORTSTAT_JSON, s.format());
        assertEquals(Instant.parse("2025-11-28T10:00:10Z"), s.time());
        assertTrue(value(s, "Ethernet0", -1, CounterKind.TX_PACKETS) > 0);
        assertTrue(value(s, "Ethernet0", -1, CounterKind.DROPS) > 0);
    }

    @Test
    void portstatBadValueIsNamedByItsPath() {
        String text = "{\"Ethernet0\": {\"TX_OK\": \"many\", \"RX_DRP\": \"0\", \"FOO\": \"1\"}}";
        InputException e = assertThrows(InputException.class, () -> PortstatJson.parse(text, "p.json", "leaf1"));
        assertTrue(e.getMessage().contains("p.json: $: many") || e.getMessage().contains("$.Ethernet0.TX_OK"), e.getMessage());
        InputException syntax = assertThrows(InputException.class, () -> PortstatJson.parse("{\"a\": ", "p.json", "leaf1"));
        assertTrue(syntax.getMessage().contains("p.json"), syntax.getMessage());
    }

    // ---------------------------------------------------------------- ethtool and hw_counters

    @Test
    void ethtoolSampleReadsRoceCounters() throws Exception {
        CounterSample s = CountersFile.of("server02:eth0=" + SAMPLES.resolve("ethtool/server02.ethtool.t0.txt")).read();
        assertEquals(CountersFormat.ETHTOOL, s.format());
        assertEquals("server02", s.readings().get(0).device());
        assertEquals("eth0", s.readings().get(0).iface());
        assertEquals(800 * 3600, value(s, "eth0", 3, CounterKind.PFC_RX));
        assertEquals(310_000L * 3600, value(s, "eth0", 3, CounterKind.PAUSE_RX_US));
        assertEquals(2250 * 3600, value(s, "eth0", -1, CounterKind.CNP_HANDLED));
        assertTrue(s.unknown().contains("ch0_arm"));
        InputException e = assertThrows(InputException.class, () -> EthtoolStats.parse("NIC statistics:\n  rx_prio3_pause 12\n", "n.txt", "s", ""));
        assertTrue(e.getMessage().contains("n.txt: line 2: not an ethtool statistic"), e.getMessage());
    }

    @Test
    void hwCountersDirectoryAndListing() throws Exception {
        CounterSample dir = CountersFile.of(SAMPLES.resolve("hw_counters/server01.t1").toString()).read();
        assertEquals("server01", dir.readings().get(0).device());
        assertEquals("mlx5_0/1", dir.readings().get(0).iface());
        assertEquals(18000 * 3610, value(dir, "mlx5_0/1", -1, CounterKind.CNP_SENT));
        assertTrue(dir.unknown().contains("out_of_sequence"));
        CounterSample listing = CountersFile.of(SAMPLES.resolve("hw_counters/server02.hw_counters.t0.txt").toString()).read();
        assertEquals(CountersFormat.HW_COUNTERS, listing.format());
        assertEquals(2250 * 3600, value(listing, "mlx5_0/1", -1, CounterKind.CNP_HANDLED));
        InputException e = assertThrows(InputException.class,
                () -> HwCounters.parse("/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:lots\n", "l.txt", "s"));
        assertTrue(e.getMessage().contains("l.txt: line 1"), e.getMessage());
    }

    // ---------------------------------------------------------------- rates, resets, mapping

    @Test
    void ratesFromTwoSamplesWithAResetAndUnmappedPorts() throws Exception {
        Fabric f = fabric();
        String t0 = "# time: 2026-01-01T00:00:00Z\n  Port Tx  PFC3\n---------  ----\nEthernet0  1000\nEthernet4  5000\nEthernet99  1\n";
        String t1 = "# time: 2026-01-01T00:00:10Z\n  Port Tx  PFC3\n---------  ----\nEthernet0  1500\nEthernet4   200\nEthernet99  2\n";
        CounterSample a = SonicShow.parse(t0, "a", "leaf1").at(CountersFile.statedTime(t0, "a"));
        CounterSample b = SonicShow.parse(t1, "b", "leaf1").at(CountersFile.statedTime(t1, "b"));
        PortMap map = new PortMap(Map.of(), Map.of("leaf1:Ethernet0", "leaf1:eth1", "leaf1:Ethernet4", "leaf1:eth2"));
        Measured m = Measured.of(f, map, List.of(a, b), null, null);
        assertEquals(50, m.ports().get("leaf1:eth1").rate(CounterKind.PFC_TX, 3), 1e-9, "(1500 - 1000) / 10 s");
        assertEquals(20, m.ports().get("leaf1:eth2").rate(CounterKind.PFC_TX, 3), 1e-9, "reset: the 200 since it, / 10 s");
        assertEquals(1, m.resets());
        assertEquals(10, m.intervalS(), 1e-9);
        assertEquals(1, m.unmapped().size());
        assertTrue(m.unmapped().get(0).contains("Ethernet99") && m.unmapped().get(0).contains("leaf1 has no port Ethernet99"),
                m.unmapped().toString());
    }

    @Test
    void oneSampleHasNoRateAndSaysSo() throws Exception {
        String t0 = "  Port Tx  PFC3\n---------  ----\neth1  1000\n";
        Measured m = Measured.of(fabric(), PortMap.NONE, List.of(SonicShow.parse(t0, "a", "leaf1")), null, null);
        assertTrue(Double.isNaN(m.ports().get("leaf1:eth1").rate(CounterKind.PFC_TX)));
        assertTrue(m.notes().stream().anyMatch(n -> n.contains("read once")), m.notes().toString());
    }

    @Test
    void intervalPlacesUntimedSamples() throws Exception {
        String t0 = "  Port Tx  PFC3\n---------  ----\neth1  1000\n";
        String t1 = "  Port Tx  PFC3\n---------  ----\neth1  1600\n";
        Measured m = Measured.of(fabric(), PortMap.NONE, List.of(SonicShow.parse(t0, "a", "leaf1"),
                SonicShow.parse(t1, "b", "leaf1")), 30.0, null);
        assertEquals(20, m.ports().get("leaf1:eth1").rate(CounterKind.PFC_TX), 1e-9);
    }

    @Test
    void theWholeSampleSetFindsThePlantedFaults() throws Exception {
        Fabric f = fabric();
        List<String> files = new java.util.ArrayList<>();
        try (var s = Files.list(SAMPLES.resolve("sonic-show"))) {
            s.sorted().forEach(p -> files.add(p.toString()));
        }
        try (var s = Files.list(SAMPLES.resolve("ethtool"))) {
            s.sorted().forEach(p -> files.add(p.toString()));
        }
        Measured m = CountersImport.read(f, SAMPLES.resolve("port-map.json"), files, null);
        assertTrue(m.unmapped().isEmpty(), m.unmapped().toString());
        assertEquals(42_000, m.figures("leaf1:eth1").ecnPerS(), 1e-6);
        var findings = CounterFindings.of(f, m, null, CounterFindings.DEFAULT_IMBALANCE);
        List<String> codes = findings.stream().map(x -> x.code() + " " + x.subject()).toList();
        assertTrue(codes.contains("COUNTER_LOSSLESS_DROP leaf1:eth1"), codes.toString());
        assertTrue(codes.contains("COUNTER_PAUSE_UNEXPECTED leaf3:eth3"), codes.toString());
        assertTrue(codes.contains("COUNTER_ECMP_IMBALANCE leaf2"), codes.toString());
        Measured portstat;
        List<String> ps = new java.util.ArrayList<>();
        try (var s = Files.list(SAMPLES.resolve("portstat"))) {
            s.sorted().forEach(p -> ps.add(p.toString()));
        }
        portstat = CountersImport.read(f, SAMPLES.resolve("port-map.json"), ps, null);
        assertEquals(1, portstat.resets(), "leaf2 Ethernet4 was cleared between the samples");
    }

    @Test
    void cnpsWithoutEcnUpstream(@TempDir Path dir) throws Exception {
        String t0 = "# time: 2026-01-01T00:00:00Z\nNIC statistics:\n np_cnp_sent: 10\n np_ecn_marked_roce_packets: 5\n";
        String t1 = "# time: 2026-01-01T00:00:10Z\nNIC statistics:\n np_cnp_sent: 110\n np_ecn_marked_roce_packets: 5\n";
        Files.writeString(dir.resolve("server05.a.txt"), t0);
        Files.writeString(dir.resolve("server05.b.txt"), t1);
        Measured m = CountersImport.read(fabric(), null, List.of(dir.resolve("server05.a.txt").toString(),
                dir.resolve("server05.b.txt").toString()), null);
        var findings = CounterFindings.of(fabric(), m, null, 0.25);
        assertEquals(List.of("COUNTER_CNP_WITHOUT_ECN"), findings.stream().map(x -> x.code()).toList());
    }

    @Test
    void formatDetection() {
        assertEquals(CountersFormat.PORTSTAT_JSON, CountersFormat.detect("{}"));
        assertEquals(CountersFormat.ETHTOOL, CountersFormat.detect("NIC statistics:\n a: 1"));
        assertEquals(CountersFormat.ETHTOOL, CountersFormat.detect("rx_prio3_pause: 1"));
        assertEquals(CountersFormat.PROMETHEUS, CountersFormat.detect("a_total{x=\"y\"} 1"));
        assertEquals(CountersFormat.HW_COUNTERS, CountersFormat.detect("/sys/class/infiniband/m/ports/1/hw_counters/x:1"));
        assertNull(CountersFormat.detect("  \n"));
        assertNotNull(CountersFormat.detect("  Port Rx  PFC0\n----  ----\n"));
    }
}
