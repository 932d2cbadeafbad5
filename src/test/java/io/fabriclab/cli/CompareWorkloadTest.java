package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricJson;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;

/** {@code compare FABRIC --workload W}: a preset on a fabric file under each transport, one at a time. */
class CompareWorkloadTest {
    @TempDir
    Path dir;

    /** {@code servers} servers x {@code gpus} GPUs, a rail leaf per GPU, 400G. */
    private Path smallRail(int servers, int gpus) throws Exception {
        Path f = dir.resolve("rail" + servers + "x" + gpus + ".json");
        RailParams p = RailParams.of(1);
        p = new RailParams(1, servers, gpus, 64, 400, p.serverCableM(), p.leafSpineCableM(), p.spineCoreCableM(), servers, 1);
        Files.writeString(f, FabricJson.write(RailOptimizedGenerator.generate(p)));
        return f;
    }

    @Test
    void aTrainingStepIsComparedPerTransportAsAShareOfInfiniband() throws Exception {
        Path fabric = smallRail(2, 1);
        // GPT-2 small on 2 one-GPU servers: TP 1, DP 2, 256 micro-batches, one 496 MB gradient
        // all-reduce through the fabric.
        CliRun r = CliRun.of("compare", fabric.toString(), "--workload", "training:gpt2-124m", "--quiet",
                "--transports", "infiniband,rocev2");
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(out.contains("Transport comparison: --workload training:gpt2-124m"), out);
        // InfiniBand is 100 % of itself; RoCEv2's row has a share; both have steps, exposed
        // communication and tokens/s; the latencies used are stated (InfiniBand class, Ethernet class).
        assertTrue(out.contains("100.0 %"), out);
        String roce = out.lines().filter(l -> l.startsWith("RoCEv2")).findFirst().orElseThrow();
        assertTrue(roce.matches(".* ms .* ms .*%\\).* [0-9.]+ %.*"), roce);
        assertTrue(out.contains("Switch port-to-port latency used:"), out);
        assertTrue(out.contains("150 ns") && out.contains("300 ns"), out);
    }

    @Test
    void aScenarioFileWithWorkloadOrAFabricWithoutIsRefusedWithAHint() throws Exception {
        Path fabric = smallRail(2, 1);
        CliRun r = CliRun.of("compare", fabric.toString(), "--quiet");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("is a fabric file; add --workload"), r.err());
        r = CliRun.of("compare", fabric.toString(), "--workload", "training:gpt-9t");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("training:MODEL with MODEL one of gpt-1.3b, gpt-13b, gpt-175b, gpt2-124m, llama-7b, moe-8x7b"), r.err());
    }

    @Test
    void simulateATrainingStepPrintsItsAnalysis() throws Exception {
        Path fabric = smallRail(2, 1);
        Path out = dir.resolve("r.json");
        CliRun r = CliRun.of("simulate", fabric.toString(), "--workload", "training:gpt2-124m", "--quiet", "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        // GPT-2 small on 2 GPUs: TP 1, PP 1, DP 2, 512 / 2 = 256 micro-batches; 124 M x 4 B of
        // gradients in Megatron's buckets of 40 M parameters (160 MB): 4 buckets.
        assertTrue(r.out().contains("training step of gpt2-124m: tp 1, pp 1, dp 2, ep 1, 256 micro-batches"), r.out());
        assertTrue(r.out().matches("(?s).*step [0-9.]+ ms: compute [0-9.]+ ms, pipeline bubble 0.000 ms, exposed communication [0-9.]+ ms.*"), r.out());
        assertTrue(r.out().contains("data parallel: "), r.out());
        assertTrue(r.out().contains("critical path: compute"), r.out());
        String json = Files.readString(out);
        assertTrue(json.contains("\"gpuTasks\""));
        // The step's analysis in the results: the job and its figures.
        com.fasterxml.jackson.databind.JsonNode t = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json)
                .get("training").get(0);
        assertEquals("gpt2-124m", t.get("job").asText());
        assertTrue(t.get("analysis").get("completed").asBoolean());
        assertTrue(t.get("analysis").get("stepPs").asLong() > t.get("analysis").get("computePs").asLong());
        // And report still reads the file.
        assertEquals(0, CliRun.of("report", "--results", out.toString(), "-o", dir.resolve("r.html").toString(),
                fabric.toString(), "--quiet").code());
    }

    @Test
    void aLargeScenarioRunsItsTransportsOneAfterAnother() throws Exception {
        // The limit lowered to the shipped all-reduce's size: its 2 transports then run on 1 thread.
        int before = io.fabriclab.app.RunService.aloneTasks;
        io.fabriclab.app.RunService.aloneTasks = 10;
        try {
            CliRun r = CliRun.of("compare", "resources/scenarios/collective-alone.json", "--transports", "rocev2,infiniband");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains("on 1 thread (") && r.err().contains("tasks: one transport at a time)"), r.err());
        } finally {
            io.fabriclab.app.RunService.aloneTasks = before;
        }
    }
}
