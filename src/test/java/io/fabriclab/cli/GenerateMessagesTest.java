package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import io.fabriclab.topology.FatTreeParams;
import io.fabriclab.topology.LeafSpineParams;
import io.fabriclab.topology.RailParams;

/**
 * Issue 18 (smaller): generator errors named record components ("gpusPerServer must be at least 1")
 * where the user typed options. Every error of {@code generate} names the option.
 */
class GenerateMessagesTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "leaf-spine --servers-per-leaf 0 | --servers-per-leaf must be at least 1, was 0",
            "leaf-spine --nics-per-server 0 | --nics-per-server must be at least 1, was 0",
            "leaf-spine --uplinks-per-pair 0 | --uplinks-per-pair must be at least 1, was 0",
            "leaf-spine --leaves 0 | --leaves must be at least 1, was 0",
            "leaf-spine --radix 0 | --radix must be at least 1, was 0",
            "rail --gpus-per-server 0 | --gpus-per-server must be at least 1, was 0",
            "rail --servers-per-unit 0 | --servers-per-unit must be at least 1, was 0",
            "rail --leaf-uplinks 0 | --leaf-uplinks must be at least 1, was 0",
            "rail --units 0 | --units must be at least 1, was 0",
            "fat-tree -k 3 | -k must be an even number >= 2, was 3",
            "rail --gpu MI300X | --gpu MI300X is not a GPU FabricLab has figures for; allowed: A100, H100, H200, B200",
            "leaf-spine --gpu X | --gpu X is not a GPU FabricLab has figures for; allowed: A100, H100, H200, B200",
            "fat-tree --gpu '' | --gpu '' is not a GPU FabricLab has figures for",
            // Item 11 of issue 31: size refusals named the count, not the options that make it.
            "leaf-spine --spines 5000 | a device would have 5008 ports; FabricLab reads at most 4096 per device (a leaf has --servers-per-leaf x --nics-per-server + --spines x --uplinks-per-pair ports",
            "leaf-spine --spines 5000 | here --servers-per-leaf 8, --nics-per-server 1, --spines 5000, --uplinks-per-pair 1, --leaves 4, --radix (default))",
            "leaf-spine --leaves 2000 --spines 2000 | the fabric would have 4016000 links; FabricLab reads at most 4000000 (--leaves x --servers-per-leaf x --nics-per-server",
            "leaf-spine --leaves 300 --servers-per-leaf 4000 | devices; FabricLab reads at most 1000000 (--leaves + --spines + --leaves x --servers-per-leaf; here --leaves 300",
            "leaf-spine --servers-per-leaf 63 --radix 64 | (a leaf has --servers-per-leaf x --nics-per-server + --spines x --uplinks-per-pair ports, at most --radix",
            "rail --units 100000 | devices; FabricLab reads at most 1000000 (--units x --servers-per-unit servers",
            "rail --units 600 --servers-per-unit 600 --radix 1200 | links; FabricLab reads at most 4000000 (--units x --servers-per-unit x --gpus-per-server",
            "rail --radix 100000 | ports; FabricLab reads at most 4096 per device (every switch has --radix ports",
            "rail --leaf-uplinks 10000 | (--servers-per-unit + --leaf-uplinks must be at most --radix; here --servers-per-unit 32, --leaf-uplinks 10000, --radix 64)",
            "rail --gpus-per-server 1000 | (a spine group joins --gpus-per-server rail leaves per unit",
            "rail --units 5000 | (--units make the spine groups; a core has --radix ports; here --units 5000, --radix 64)",
            "fat-tree -k 200 | devices; FabricLab reads at most 1000000 (k^3/4 hosts + 5k^2/4 switches; here -k 200)",
            "fat-tree -k 2000 --spare-ports 3000 | ports; FabricLab reads at most 4096 per device (every switch has -k + --spare-ports ports; here -k 2000, --spare-ports 3000)",
    })
    void errorsNameTheOption(String args, String expected) {
        String[] a = ("generate " + args + " -o " + dir.resolve("f.json")).split(" ");
        CliRun r = CliRun.of(a);
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(expected), r.err());
    }

    /** Every component a check can name is mapped, so no future check falls back to a field name. */
    @Test
    void everySettableComponentHasAnOption() {
        assertMapped(LeafSpineParams.class, GenerateCommand.LEAF_SPINE_OPTIONS, Set.of());
        assertMapped(RailParams.class, GenerateCommand.RAIL_OPTIONS,
                Set.of("serverCableM", "leafSpineCableM", "spineCoreCableM", "unitsPerSpineGroup"));
        assertMapped(FatTreeParams.class, GenerateCommand.FAT_TREE_OPTIONS,
                Set.of("hostCableM", "edgeAggCableM", "aggCoreCableM"));
    }

    private static void assertMapped(Class<? extends Record> c, Map<String, String> map, Set<String> notOptions) {
        Set<String> comps = Arrays.stream(c.getRecordComponents()).map(RecordComponent::getName)
                .filter(n -> !notOptions.contains(n)).collect(Collectors.toSet());
        assertEquals(comps, map.keySet(), c.getSimpleName());
    }

    /** Issue 16 item 21: the summary line printed Java map text ("{LEAF=4, SPINE=2}"). */
    @Test
    void everyServerGetsTheGpuOfGpuAndTheSummarySaysIt() throws Exception {
        for (String[] t : new String[][] {{"rail", "B200"}, {"leaf-spine", "a100"}, {"fat-tree", "H200"}}) {
            Path file = dir.resolve(t[0] + ".json");
            CliRun r = CliRun.of("generate", t[0], "--gpu", t[1], "-o", file.toString());
            assertEquals(ExitCode.OK, r.code(), r.err());
            io.fabriclab.model.ScaleUp expected = io.fabriclab.model.ScaleUp.of(t[1]);
            assertTrue(r.out().contains("GPUs: " + expected.describe()), r.out());
            io.fabriclab.model.Fabric f = io.fabriclab.io.FabricJson.read(file);
            assertTrue(f.servers().stream().allMatch(d -> expected.equals(d.scaleUp())), t[0]);
        }
        // Without --gpu: H100, written into the file.
        Path file = dir.resolve("default.json");
        assertEquals(ExitCode.OK, CliRun.of("generate", "rail", "-o", file.toString()).code());
        assertTrue(java.nio.file.Files.readString(file).contains(
                "\"scaleUp\": {\"gpu\": \"H100\", \"bandwidthGBps\": 450, \"latencyNs\": 470}"));
    }

    @Test
    void theSummaryLineSaysRolesInWords() {
        CliRun r = CliRun.of("generate", "leaf-spine", "-o", dir.resolve("ls.json").toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.out().contains("6 switches (4 leaf, 2 spine)"), r.out());
        assertTrue(!r.out().contains("{") && !r.out().contains("="), r.out());
    }
}
