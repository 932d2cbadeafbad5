package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;

/**
 * Every live preset names a shipped scenario written for the shipped example fabric it says, and
 * a live run of it builds on that fabric (its flows, and the speed it is shown at, in range).
 */
class LivePresetTest {

    @ParameterizedTest
    @EnumSource(LivePreset.class)
    void eachPresetBuildsALiveRunOnTheExampleItNames(LivePreset p) throws Exception {
        Path scenario = p.scenarioFile();
        String text = Files.readString(scenario);
        assertTrue(text.contains("\"../examples/" + p.fabric() + "\""), p + " names " + p.fabric() + " in " + scenario);
        Fabric f = FabricJson.read(Path.of("resources/examples", p.fabric()));
        LiveSession s = LiveSession.create(f, RunSettings.incast().withScenario(scenario));
        assertFalse(s.flows().isEmpty(), p + " has flows");
        assertTrue(p.speedPosition() >= 3 && p.speedPosition() < LiveSpeed.MAX_POSITION, "a set speed, not max");
        assertEquals(p.toString(), LiveWorkload.of(p).toString());
    }
}
