package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.Gpus;
import io.fabriclab.workload.NcclCollective;

/** A run with NVLink transfers and compute writes a results file that report reads back. */
class ResultsWithGpuTasksTest {
    @TempDir
    Path dir;

    @Test
    void aResultsFileWithGpuTasksReadsBack() throws Exception {
        io.fabriclab.model.Fabric f = FabricReader.FILES.read(Path.of("resources/examples/rail-1su.json"));
        List<String> gpus = Gpus.all(f).subList(0, 16);
        NcclCollective c = new NcclCollective(NcclCollective.Op.ALL_REDUCE, "ar", gpus, 1 << 20,
                NcclCollective.Algorithm.AUTO, 2, 3);
        List<FlowSpec> tasks = c.flows(f);
        Simulator sim = new Simulator(f, tasks, SimConfig.defaults());
        sim.describeNcclCollectives(List.of(c));
        SimResults r = sim.run();
        Path out = dir.resolve("r.json");
        ResultsJson.write(r, new ResultsJson.Metadata("t", "t", "t", "-", f.name(), null), out, true);
        String text = Files.readString(out);
        assertTrue(text.contains("\"gpuTasks\""), "written");
        ResultsFile.Loaded back = ResultsFile.read(out);
        // The collective over 16 GPUs of 2 servers, with its NVLink transfers, as declared.
        assertEquals(1, back.results().collectives().size(), back.toString());
        assertEquals(16, back.results().collectives().get(0).ranks());
        assertEquals(1 << 20, back.results().collectives().get(0).bytes());
    }
}
