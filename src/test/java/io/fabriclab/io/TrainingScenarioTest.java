package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.NcclCollective;
import io.fabriclab.workload.TrainingJob;

/** Scenario types {@code training} and {@code nccl}: read, defaulted, and refused naming the field. */
class TrainingScenarioTest {
    private static final Path DIR = Path.of("resources/examples");

    private static Scenario parse(String workload) {
        String json = "{\"schemaVersion\": 1, \"name\": \"t\", \"fabric\": \"rail-1su.json\", \"workloads\": [" + workload + "]}";
        return ScenarioJson.parse(json, "t.json", DIR, FabricReader.FILES, null);
    }

    @Test
    void aTrainingPresetTakesMegatronsParallelismForItsSize() {
        // rail-1su: 256 GPUs, 8 per server. gpt-13b: 13 B parameters, TP 8, PP 1, DP 32.
        Scenario s = parse("{\"type\": \"training\", \"preset\": \"gpt-13b\", \"schedule\": {\"bucketBytes\": 1000000000}}");
        TrainingJob job = (TrainingJob) s.workloads().get(0);
        assertEquals(8, job.tp());
        assertEquals(1, job.pp());
        assertEquals(32, job.dp());
        // Global batch 1024 / (micro batch 1 x DP 32) = 32 micro-batches.
        assertEquals(32, job.microBatches());
        assertTrue(s.flows().stream().anyMatch(t -> t.kind() == FlowSpec.Kind.NVLINK));
        assertTrue(s.flows().stream().anyMatch(t -> t.kind() == FlowSpec.Kind.COMPUTE));
    }

    @Test
    void anNcclCollectiveIsRead() {
        Scenario s = parse("{\"type\": \"nccl\", \"op\": \"alltoall\", \"bytes\": 1048576, \"maxServers\": 4, \"algorithm\": \"direct\"}");
        NcclCollective c = (NcclCollective) s.workloads().get(0);
        assertEquals(32, c.ranks().size());
        assertEquals(NcclCollective.Algorithm.DIRECT, c.algorithm());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"type\": \"training\", \"preset\": \"gpt-13b\", \"parallelism\": {\"tp\": 16, \"dp\": 16}} | $.workloads[0].parallelism.tp: 16 is larger than server",
        "{\"type\": \"training\", \"preset\": \"gpt-13b\", \"parallelism\": {\"tp\": 8, \"pp\": 1, \"dp\": 4}} | $.workloads[0].parallelism: tp x pp x dp = 8 x 1 x 4 = 32 GPUs, but the fabric has 256",
        "{\"type\": \"training\", \"preset\": \"gpt-13b\", \"parallelism\": {\"tp\": 8, \"pp\": 3, \"dp\": 8}} | parallelism.pp: 3 stages do not divide the model's 40 layers",
        "{\"type\": \"training\", \"model\": {\"parameters\": -5, \"layers\": 2, \"hidden\": 8, \"sequence\": 8, \"globalBatch\": 256}} | $.workloads[0].model.parameters",
        "{\"type\": \"training\", \"preset\": \"gpt-9t\"} | $.workloads[0].preset: found \"gpt-9t\", expected one of gpt-1.3b",
        "{\"type\": \"training\", \"preset\": \"gpt-13b\", \"gpu\": {\"achievedTflops\": -1}} | $.workloads[0].gpu.achievedTflops",
        "{\"type\": \"nccl\", \"op\": \"alltoall\", \"bytes\": 1048576, \"algorithm\": \"tree\"} | $.workloads[0].algorithm: found \"tree\", expected for alltoall one of auto, direct, pxn",
        "{\"type\": \"nccl\", \"op\": \"allreduce\", \"bytes\": 1048576, \"gpus\": [\"su1-srv01:gpu9\"]} | $.workloads[0].gpus[0]",
    })
    void badTrainingAndNcclWorkloadsNameTheField(String workload, String expected) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> parse(workload));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().contains("t.json"), "names the file: " + e.getMessage());
    }
}
