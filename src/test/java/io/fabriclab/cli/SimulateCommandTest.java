package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.io.FabricReader;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sim.TestFabrics;

import picocli.CommandLine;

class SimulateCommandTest {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int run(String... args) {
        SimulateCommand.setFabricReader(new FabricReader() {
            @Override
            public Fabric read(Path file) {
                return TestFabrics.star(5, 100, 1.0, QosProfile.roceLossless("lossless", 100));
            }

            @Override
            public Fabric read(JsonNode inline, String where) {
                return read(Path.of("x"));
            }
        });
        CommandLine cl = new CommandLine(new SimulateCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @AfterEach
    void unwire() {
        // Back to the default wiring, so later tests in this JVM read fabric files again.
        SimulateCommand.setFabricReader(io.fabriclab.io.FabricReader.FILES);
    }

    static final String SCENARIO = """
            {"schemaVersion": 1, "name": "t", "fabric": "f.json", "profile": "pfc-only",
             "workloads": [{"type": "incast", "senders": ["s1:nic0", "s2:nic0", "s3:nic0"],
                            "receiver": "s0:nic0", "bytesPerSender": 3000000}]}
            """;

    @Test
    void simulateWritesResultsCsvAndASummary(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("f.json"), "{}");
        Files.writeString(dir.resolve("s.json"), SCENARIO);
        int code = run(dir.resolve("s.json").toString(), "-o", dir.resolve("r.json").toString(),
                "--csv", dir.resolve("csv").toString());
        assertEquals(0, code, err.toString());
        JsonNode r = new ObjectMapper().readTree(dir.resolve("r.json").toFile());
        assertEquals(1, r.get("schemaVersion").asInt());
        assertEquals(3, r.get("run").get("flowsCompleted").asInt());
        assertTrue(Files.exists(dir.resolve("csv/flow_rate.csv")));
        String summary = out.toString();
        assertTrue(summary.contains("completed after"), summary);
        assertTrue(summary.contains("Worst egress queues"), summary);
        assertTrue(summary.contains("PFC by port and priority"), summary);
        assertTrue(err.toString().contains("flows"), "progress on stderr");
    }

    @Test
    void badInputExitsWithTwoAndAClearMessage(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("s.json"), SCENARIO.replace("\"f.json\"", "\"missing.json\""));
        assertEquals(2, run(dir.resolve("s.json").toString(), "-o", dir.resolve("r.json").toString()));
        assertTrue(err.toString().contains("$.fabric"), err.toString());
        assertEquals(2, run(dir.resolve("nope.json").toString(), "-o", dir.resolve("r.json").toString()));
        assertTrue(err.toString().contains("no such file"), err.toString());
        assertTrue(!Files.exists(dir.resolve("r.json")));
    }
}
