package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;

/** A server's "scaleUp" field: read, checked, written and carried through containerlab. */
class ScaleUpJsonTest {

    private static String server(String scaleUp) {
        return "{\"schemaVersion\": 1, \"name\": \"x\", \"devices\": [{\"id\": \"s1\", \"role\": \"server\", "
                + "\"scaleUp\": " + scaleUp + ", \"ports\": [{\"name\": \"nic0\", \"speedGbps\": 400, \"nic\": 0}]}]}";
    }

    private static List<InputProblem> problems(String text) {
        InputException e = assertThrows(InputException.class, () -> FabricJson.read(text, "f.json"));
        return e.problems();
    }

    @Test
    void aGpuAloneTakesItsGenerationsCitedFigures() throws Exception {
        for (ScaleUp k : ScaleUp.known()) {
            Device d = FabricJson.read(server("{\"gpu\": \"" + k.gpu() + "\"}"), "f.json").device("s1");
            assertEquals(k, d.scaleUp(), k.gpu());
        }
        Device h = FabricJson.read(server("{\"gpu\": \"H100\"}"), "f.json").device("s1");
        assertEquals(450, h.scaleUp().bandwidthGBps());
        assertEquals(470, h.scaleUp().latencyNs());
        assertEquals("NVLink 4 / NVSwitch", h.scaleUp().technology());
    }

    @Test
    void explicitFiguresOverrideTheGenerations() throws Exception {
        ScaleUp s = FabricJson.read(server("{\"gpu\": \"H100-SXM5\", \"bandwidthGBps\": 400.5, \"latencyNs\": 600}"),
                "f.json").device("s1").scaleUp();
        assertEquals(new ScaleUp("H100-SXM5", "NVLink 4 / NVSwitch", 400.5, 600), s);
        ScaleUp custom = FabricJson.read(server("{\"gpu\": \"MI300X\", \"technology\": \"Infinity Fabric\", "
                + "\"bandwidthGBps\": 448, \"latencyNs\": 700}"), "f.json").device("s1").scaleUp();
        assertEquals(new ScaleUp("MI300X", "Infinity Fabric", 448, 700), custom);
        ScaleUp noTech = FabricJson.read(server("{\"gpu\": \"MI300X\", \"bandwidthGBps\": 448, \"latencyNs\": 700}"),
                "f.json").device("s1").scaleUp();
        assertEquals("custom scale-up", noTech.technology());
    }

    @Test
    void aServerWithoutOneHasNoneAndTakesTheDefault() throws Exception {
        Fabric f = FabricJson.read("{\"schemaVersion\": 1, \"name\": \"x\", \"devices\": [{\"id\": \"s1\", "
                + "\"role\": \"server\"}]}", "f.json");
        assertNull(f.device("s1").scaleUp());
        assertEquals(ScaleUp.DEFAULT, f.device("s1").scaleUpOrDefault());
        assertTrue(!FabricJson.write(f).contains("scaleUp"), "nothing written for a server without one");
    }

    @Test
    void anUnknownGpuWithoutFiguresNamesTheFileFieldAndKnownGpus() {
        List<InputProblem> p = problems(server("{\"gpu\": \"MI300X\"}"));
        assertEquals(1, p.size(), p.toString());
        String line = p.get(0).render();
        // The line docs/format.md shows.
        assertEquals("f.json: $.devices[0].scaleUp.gpu: FabricLab knows no figures for GPU \"MI300X\"; name a known "
                + "GPU or give bandwidthGBps and latencyNs; allowed: A100, H100, H200, B200, or any name with "
                + "bandwidthGBps and latencyNs", line);
        List<InputProblem> half = problems(server("{\"gpu\": \"MI300X\", \"bandwidthGBps\": 448}"));
        assertTrue(half.get(0).render().contains("give latencyNs"), half.get(0).render());
    }

    @Test
    void badFiguresAreRefusedWithTheFieldNamed() {
        for (String bad : List.of("-450", "0", "1e9", "\"450\"")) {
            List<InputProblem> p = problems(server("{\"gpu\": \"H100\", \"bandwidthGBps\": " + bad + "}"));
            assertEquals(1, p.size(), bad + ": " + p);
            assertEquals("$.devices[0].scaleUp.bandwidthGBps", p.get(0).jsonPath(), bad);
            assertTrue(p.get(0).render().contains("(0, 100000]"), p.get(0).render());
        }
        for (String bad : List.of("-1", "0", "1000001", "470.5")) {
            List<InputProblem> p = problems(server("{\"gpu\": \"H100\", \"latencyNs\": " + bad + "}"));
            assertEquals(1, p.size(), bad + ": " + p);
            assertEquals("$.devices[0].scaleUp.latencyNs", p.get(0).jsonPath(), bad);
            assertTrue(p.get(0).render().contains("a whole number from 1 to 1000000"), p.get(0).render());
        }
        assertEquals("$.devices[0].scaleUp.gpu", problems(server("{\"bandwidthGBps\": 450}")).get(0).jsonPath(),
                "gpu is required");
        assertEquals("$.devices[0].scaleUp.gpu", problems(server("{\"gpu\": \" H100\"}")).get(0).jsonPath());
        assertEquals("$.devices[0].scaleUp.gpu", problems(server("{\"gpu\": \"\"}")).get(0).jsonPath());
        assertEquals("$.devices[0].scaleUp.nvlinks", problems(server("{\"gpu\": \"H100\", \"nvlinks\": 18}"))
                .get(0).jsonPath(), "unknown fields are errors");
        assertEquals("$.devices[0].scaleUp", problems(server("\"H100\"")).get(0).jsonPath(), "an object, not a string");
    }

    @Test
    void aSwitchWithAScaleUpDomainIsRefused() {
        String text = "{\"schemaVersion\": 1, \"name\": \"x\", \"devices\": [{\"id\": \"l1\", \"role\": \"leaf\", "
                + "\"scaleUp\": {\"gpu\": \"H100\"}}]}";
        List<InputProblem> p = problems(text);
        assertEquals(1, p.size(), p.toString());
        assertEquals("$.devices[0].scaleUp", p.get(0).jsonPath());
        assertTrue(p.get(0).render().contains("only servers have a scale-up domain"), p.get(0).render());
        assertTrue(p.get(0).render().contains("omit scaleUp on switches"), p.get(0).render());
    }

    @Test
    void writtenOnOneLineWithBothFiguresAndReadBackTheSame() throws Exception {
        Fabric f = new Fabric("x");
        Device a = f.addDevice("a", DeviceRole.SERVER);
        a.setScaleUp(ScaleUp.of("H100"));
        Device b = f.addDevice("b", DeviceRole.SERVER);
        b.setScaleUp(new ScaleUp("MI300X", "Infinity Fabric", 448, 700));
        Device c = f.addDevice("c", DeviceRole.SERVER);
        c.setScaleUp(new ScaleUp("H200", "NVLink 4 / NVSwitch", 450, 470));
        String text = FabricJson.write(f);
        assertTrue(text.contains("\"scaleUp\": {\"gpu\": \"H100\", \"bandwidthGBps\": 450, \"latencyNs\": 470},"), text);
        assertTrue(text.contains("\"scaleUp\": {\"gpu\": \"MI300X\", \"technology\": \"Infinity Fabric\", "
                + "\"bandwidthGBps\": 448, \"latencyNs\": 700},"), text);
        Fabric back = FabricJson.read(text, "f.json");
        for (String id : List.of("a", "b", "c")) {
            assertEquals(f.device(id).scaleUp(), back.device(id).scaleUp(), id);
        }
        assertEquals(text, FabricJson.write(back));
    }

    @Test
    void containerlabKeepsItAsALabelAndChecksIt() throws Exception {
        Fabric f = new Fabric("x");
        f.addDevice("a", DeviceRole.SERVER).setScaleUp(new ScaleUp("MI300X", "Infinity Fabric", 448, 700));
        String yaml = ContainerlabYaml.write(f);
        assertTrue(yaml.contains(ContainerlabYaml.SCALE_UP_LABEL), yaml);
        assertEquals(f.device("a").scaleUp(), ContainerlabYaml.read(yaml, "f.clab.yml").device("a").scaleUp());
        String bad = yaml.replace("448", "-448");
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(bad, "f.clab.yml"));
        assertTrue(e.getMessage().contains("f.clab.yml: $.topology.nodes.a.labels.fabriclab-scaleup.bandwidthGBps: -448"),
                e.getMessage());
    }
}
