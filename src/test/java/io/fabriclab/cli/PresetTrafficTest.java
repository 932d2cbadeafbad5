package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.WorkloadPreset;

/**
 * One definition of every preset: {@code simulate --workload} and {@code compare --workload} build
 * their scenario with ScenarioPreset, the live view calls WorkloadPreset; on the same fabric they
 * give the same tasks, in the same order.
 */
class PresetTrafficTest {
    private static final Path RAIL = Path.of("resources/examples/rail-1su.json");

    private static List<FlowSpec> cli(ScenarioPreset.Kind kind, Long bytes) throws Exception {
        Scenario s = new ScenarioPreset(kind, null, bytes, null, null, null, null).read(RAIL, FabricReader.FILES, null);
        return s.flows();
    }

    @Test
    void theCliCompareAndTheLiveViewRunTheSameTraffic() throws Exception {
        Fabric f = FabricReader.FILES.read(RAIL);
        assertEquals(WorkloadPreset.INCAST.flows(f, ScenarioPreset.DEFAULT_INCAST_BYTES, ScenarioPreset.DEFAULT_INCAST_SENDERS, 1),
                cli(ScenarioPreset.Kind.INCAST, null));
        assertEquals(WorkloadPreset.ALL_REDUCE.flows(f, 4L << 20, 8, 1), cli(ScenarioPreset.Kind.ALL_REDUCE, 4L << 20));
        assertEquals(WorkloadPreset.ALL_TO_ALL.flows(f, 4L << 20, 8, 1), cli(ScenarioPreset.Kind.ALL_TO_ALL, 4L << 20));
    }

    @Test
    void theIncastOnARailFabricSendsFromOtherServersOnly() throws Exception {
        // rail-1su: 32 servers x 8 NICs. Before, the 8 senders were the NICs after the receiver in
        // fabric order: 7 of them on the receiver's own server.
        Fabric f = FabricReader.FILES.read(RAIL);
        List<FlowSpec> incast = cli(ScenarioPreset.Kind.INCAST, null);
        assertEquals(8, incast.size());
        Device receiver = f.port(incast.get(0).dst()).device();
        for (FlowSpec s : incast) {
            assertFalse(f.port(s.src()).device() == receiver, s.src() + " is on the receiver's server");
        }
        assertEquals(8, incast.stream().map(s -> f.port(s.src()).device()).distinct().count());
    }

    @Test
    void theAllReducePresetUsesNvlinkInsideServers() throws Exception {
        List<FlowSpec> ar = cli(ScenarioPreset.Kind.ALL_REDUCE, 4L << 20);
        assertTrue(ar.stream().anyMatch(t -> t.kind() == FlowSpec.Kind.NVLINK));
        for (FlowSpec t : ar) {
            if (t.network()) {
                // Between servers each transfer stays on its rail: NIC k to NIC k.
                assertEquals(t.src().substring(t.src().indexOf(':')), t.dst().substring(t.dst().indexOf(':')));
            }
        }
    }
}
