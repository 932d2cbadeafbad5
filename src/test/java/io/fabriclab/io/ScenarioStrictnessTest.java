package io.fabriclab.io;

import static io.fabriclab.io.ScenarioJsonTest.INCAST;
import static io.fabriclab.io.ScenarioJsonTest.star;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.fabriclab.model.QosProfile;

/**
 * Scenario files are read with the strictness of every FabricLab reader (size limit, UTF-8,
 * duplicate keys, nothing after the object, every problem with its JSON path), and their QoS
 * overrides go through the fabric reader's QoS validator.
 */
class ScenarioStrictnessTest {

    private static String problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioJson.parse(json, "s.json", null, star(7), null))
                .getMessage();
    }

    /** A bad override replaces the "qos" of INCAST. */
    private static String withQos(String qos) {
        return INCAST.replace("\"qos\": {\"pfc\": {\"xoffBytes\": 200000, \"xonBytes\": 150000}},", "\"qos\": " + qos + ",");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"dcqcn\": {\"g\": -1}}                 | $.qos.dcqcn.g                 | -1 is not allowed; allowed: a number in (0, 1]",
            "{\"dcqcn\": {\"g\": 2}}                  | $.qos.dcqcn.g                 | 2 is not allowed",
            "{\"dcqcn\": {\"g\": \"NaN\"}}            | $.qos.dcqcn.g                 | must be a number, not a string",
            "{\"dcqcn\": {\"initialAlpha\": \"NaN\"}} | $.qos.dcqcn.initialAlpha      | must be a number, not a string",
            "{\"dcqcn\": {\"minRateMbps\": -1000}}    | $.qos.dcqcn.minRateMbps       | -1000 is not allowed",
            "{\"dcqcn\": {\"maxCutFraction\": 2}}     | $.qos.dcqcn.maxCutFraction    | 2 is not allowed",
            "{\"buffer\": {\"alpha\": -1}}            | $.qos.buffer.alpha            | -1 is not allowed",
            "{\"buffer\": {\"mode\": \"STATIC\"}}     | $.qos.buffer.mode             | \"STATIC\" is not allowed; allowed: static, dynamic",
            "{\"buffer\": {\"poolBytes\": 0}}         | $.qos.buffer.poolBytes        | 0 is not allowed",
            "{\"ecn\": {\"classes\": {\"3\": {\"kminBytes\": 1, \"kmaxBytes\": 2, \"pmax\": \"NaN\"}}}} | $.qos.ecn.classes['3'].pmax | must be a number, not a string",
            "{\"ecn\": {\"markAt\": 3}}               | $.qos.ecn.markAt              | must be a string, not a number",
            "{\"pfc\": {\"watchdogUs\": -5}}          | $.qos.pfc.watchdogUs          | -5 is not allowed",
            "{\"pfc\": {\"watchdogAction\": \"drop it\"}} | $.qos.pfc.watchdogAction  | is not allowed; allowed: drop, forward",
            "{\"pfc\": {\"xonBytes\": 10000000}}      | $.qos.pfc.xonBytes            | must be below XOFF",
            "{\"scheduler\": {\"strictPriorityClasses\": [9, -1]}} | $.qos.scheduler.strictPriorityClasses[0] | 9 is not allowed; allowed: a whole number from 0 to 7",
            "{\"scheduler\": {\"dwrrWeights\": [1, 2]}} | $.qos.scheduler.dwrrWeights | needs exactly 8 weights",
            "{\"dcqcn\": {\"gain\": 0.5}}             | $.qos.dcqcn.gain              | unknown field \"gain\"",
            "{\"pfcs\": {}}                           | $.qos.pfcs                    | unknown field \"pfcs\"",
    })
    void qosOverridesGoThroughTheFabricReadersValidator(String qos, String path, String message) {
        String e = problems(withQos(qos));
        assertTrue(e.contains("s.json: " + path + ": "), e);
        assertTrue(e.contains(message), e);
        // Never a Java type or exception name.
        assertFalse(e.matches("(?s).*(java\\.|io\\.fabriclab|Exception|Double|Integer|`).*"), e);
    }

    @Test
    void theSecondStrictPriorityClassIsReportedToo() {
        String e = problems(withQos("{\"scheduler\": {\"strictPriorityClasses\": [9, -1]}}"));
        assertTrue(e.contains("$.qos.scheduler.strictPriorityClasses[1]: -1 is not allowed"), e);
    }

    @Test
    void validOverridesUseTheFabricFormatsSpellings() {
        Scenario s = ScenarioJson.parse(withQos("{\"buffer\": {\"mode\": \"static\", \"staticLimitBytes\": 1000000},"
                + " \"pfc\": {\"watchdogUs\": 100, \"watchdogAction\": \"drop\"}}"), "s.json", null, star(7), null);
        QosProfile q = s.qos().qosFor(s.fabric().port("leaf0:eth0"));
        assertEquals(io.fabriclab.model.BufferConfig.ThresholdMode.STATIC, q.buffer().mode());
        assertEquals(io.fabriclab.model.PfcConfig.WatchdogAction.DROP, q.pfc().watchdogAction());
    }

    @Test
    void duplicateKeysAreRefused() {
        String e = problems(INCAST.replace("\"seed\": 7,", "\"seed\": 1, \"seed\": 2,"));
        assertTrue(e.contains("s.json: $: not valid JSON at line"), e);
        assertTrue(e.contains("Duplicate field 'seed'"), e);
    }

    @Test
    void trailingGarbageAfterTheObjectIsRefused() {
        String e = problems(INCAST + "\n{\"more\": 1}\n");
        assertTrue(e.startsWith("s.json: $: not valid JSON at line"), e);
    }

    @Test
    void everyProblemIsReportedNotOnlyTheFirst() {
        String e = problems(INCAST.replace("\"seed\": 7,", "\"seed\": \"seven\", \"durationUs\": -1, \"colour\": 1,")
                .replace("\"bytes\": 100000", "\"bytes\": 0"));
        assertTrue(e.contains("s.json: $.colour: unknown field \"colour\""), e);
        assertTrue(e.contains("s.json: $.seed: found \"seven\""), e);
        assertTrue(e.contains("s.json: $.durationUs: found -1"), e);
        assertTrue(e.contains("s.json: $.workloads[1].flows[0].bytes: found 0"), e);
        assertEquals(4, e.lines().count(), e);
    }

    @Test
    void aByteOrderMarkIsNotContentAndBadUtf8IsNamed(@TempDir Path dir) throws Exception {
        Path sc = dir.resolve("bom.json");
        Files.writeString(sc, "\uFEFF" + INCAST);
        assertEquals("incast 4:1", ScenarioJson.read(sc, star(7)).name());
        Path bad = dir.resolve("latin1.json");
        Files.write(bad, INCAST.replace("incast 4:1", "incast \u00e9").getBytes(StandardCharsets.ISO_8859_1));
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioJson.read(bad, star(7)));
        assertEquals(bad + ": $: file is not UTF-8 text; allowed: UTF-8 encoded text", e.getMessage());
    }

    @Test
    void aScenarioOverTheSizeLimitIsRefusedUnread(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("big.json");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(JsonInput.MAX_FILE_BYTES + 1); // sparse: nothing is written or read
        }
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioJson.read(big, star(7)));
        assertTrue(e.getMessage().startsWith(big + ": $: file is 64.0 MB, too large to be a scenario"), e.getMessage());
    }

    @Test
    void flowsWaitingForEachOtherInACycleAreRefused() {
        String e = problems(INCAST.replace("{\"src\": \"s5:nic0\", \"dst\": \"s6:nic0\", \"bytes\": 100000, \"priority\": 3}",
                "{\"id\": \"a\", \"after\": [\"b\"], \"src\": \"s5:nic0\", \"dst\": \"s6:nic0\", \"bytes\": 100000},"
                        + "{\"id\": \"b\", \"after\": [\"a\"], \"src\": \"s6:nic0\", \"dst\": \"s5:nic0\", \"bytes\": 100000},"
                        + "{\"id\": \"c\", \"after\": [\"nobody\"], \"src\": \"s6:nic0\", \"dst\": \"s5:nic0\", \"bytes\": 1}"));
        assertTrue(e.contains("s.json: $.workloads[1].flows[0].after: flows a, b wait for each other in a cycle"), e);
        assertTrue(e.contains("s.json: $.workloads[1].flows[2].after[0]: no flow has the id \"nobody\""), e);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // 2^63-1 bytes once overflowed the 31-bit PSN check into a negative packet count.
            "\"bytesPerSender\": 2000000 | \"bytesPerSender\": 9223372036854775807 | $.workloads[0].bytesPerSender | expected an integer 1 to 1000000000000000",
            "\"sampleIntervalUs\": 5 | \"sampleIntervalUs\": 1e-9 | $.telemetry.sampleIntervalUs | below 1 ps the simulator cannot tell the time from 0",
            "\"seed\": 7, | \"seed\": 7, \"mtuBytes\": 20000, | $.mtuBytes | expected an integer 256 to 16384",
            "\"seed\": 7, | \"seed\": 7, \"durationUs\": 1e308, | $.durationUs | expected 0 to 1e9 microseconds",
            "\"startUs\": 1.5 | \"startUs\": 1.5, \"priority\": 8 | $.workloads[0].priority | expected an integer 0 to 7",
    })
    void boundsOfNumbersNameTheField(String from, String to, String path, String message) {
        String e = problems(INCAST.replace(from, to));
        assertTrue(e.contains("s.json: " + path + ": "), e);
        assertTrue(e.contains(message), e);
    }

    @Test
    void aBackgroundCdfOfAstronomicalSizesIsRefused() {
        String e = problems(INCAST.replace("{\"type\": \"flows\"", "{\"type\": \"background\", \"load\": 0.5, "
                + "\"durationUs\": 100, \"sizes\": [[1000, 0], [1e308, 100]]}, {\"type\": \"flows\""));
        assertTrue(e.contains("s.json: $.workloads[1].sizes[1][0]: found 1.0E308, expected a flow size from 0 to"), e);
    }

    @Test
    void backgroundThatWouldStartNoFlowIsRefused() {
        // 1 us at 1 % load of 100G with 10 GB flows: lambda T = 0.01 x 1e11 / (8 x 1e10) x 1e-6 s, about 1e-8 flows.
        String e = problems(INCAST.replace("{\"type\": \"flows\"", "{\"type\": \"background\", \"load\": 0.01, "
                + "\"durationUs\": 1, \"sizes\": [[1e10, 0], [1e10, 100]]}, {\"type\": \"flows\""));
        assertTrue(e.contains("s.json: $.workloads[1]: found {...}, expected background traffic that starts at least one flow"), e);
    }

    @Test
    void backgroundOfHundredsOfMillionsOfFlowsIsRefusedBeforeItIsBuilt() {
        // 7 NICs x 100G at load 1 with 64-byte flows for 1000 s: 7 x 1e11 / 512 x 1000 = 1.4e12 flows.
        String e = problems(INCAST.replace("{\"type\": \"flows\"", "{\"type\": \"background\", \"load\": 1, "
                + "\"durationUs\": 1e9, \"sizes\": [[64, 0], [64, 100]]}, {\"type\": \"flows\""));
        assertTrue(e.contains("s.json: $.workloads[1]: found {...}, expected a workload of at most"), e);
        assertTrue(e.contains("would start about 1367187500000 flows"), e);
    }

    /** Item 3 of issue 31: microburst and checkpoint flows were built uncounted (5-6 million filled a 6 GB heap). */
    @Test
    void microburstAndCheckpointFlowsAreCountedBeforeTheyAreBuilt() {
        String fifty = String.join(", ", java.util.Collections.nCopies(50, "\"s1:nic0\""));
        String burst = problems(INCAST.replace("{\"type\": \"flows\"", "{\"type\": \"microburst\", \"senders\": [" + fifty
                + "], \"receiver\": \"s2:nic0\", \"bytesPerSender\": 1000, \"periodUs\": 1, \"count\": 100000}, {\"type\": \"flows\""));
        assertTrue(burst.contains("s.json: $.workloads[1]: found {...}, expected a workload of at most"), burst);
        assertTrue(burst.contains("would start about 5000000 flows"), burst);
        String checkpoint = problems(INCAST.replace("{\"type\": \"flows\"", "{\"type\": \"checkpoint\", \"clients\": [" + fifty
                + "], \"targets\": [\"s2:nic0\"], \"bytesPerClient\": 1000, \"periodUs\": 1, \"count\": 100000}, {\"type\": \"flows\""));
        assertTrue(checkpoint.contains("would start about 5000000 flows"), checkpoint);
    }

    /** Item 11 of issue 31: a background NIC that is not in the fabric was an error naming no file. */
    @Test
    void aBackgroundNicOutsideTheFabricNamesTheFileAndWorkload() {
        String e = problems(INCAST.replace("{\"type\": \"flows\"", "{\"type\": \"background\", \"load\": 0.5, "
                + "\"durationUs\": 100, \"sizes\": \"hadoop\", \"nics\": [\"s1:nic0\", \"nosuch:nic0\"]}, {\"type\": \"flows\""));
        assertTrue(e.contains("s.json: $.workloads[1]: background NIC 'nosuch:nic0' is not a connected NIC"), e);
    }

    @Test
    void aRunWhoseTelemetryCouldNeverFinishIsRefusedWithItsSize() {
        // 1e9 us sampled every 1e-6 us (1 ps): 1e15 samples over 5 flows, 6e15 > 1e12.
        String e = problems(INCAST.replace("\"sampleIntervalUs\": 5", "\"sampleIntervalUs\": 0.000001")
                .replace("\"seed\": 7,", "\"seed\": 7, \"durationUs\": 1e9,"));
        assertTrue(e.contains("s.json: $.telemetry.sampleIntervalUs: the run would sample 1.00e+15 times"), e);
    }
}
