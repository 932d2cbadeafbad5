package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.fabriclab.io.FabricJson;
import io.fabriclab.io.FabricReader;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.SimResults;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;

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

    /** Every preset runs on the example the editor opens first, so none is refused there. */
    @ParameterizedTest
    @EnumSource(LivePreset.class)
    void eachPresetIsWrittenForTheShippedExample(LivePreset p) {
        assertEquals("classic-leaf-spine.json", p.fabric(), p + " on the shipped example");
    }

    private static SimResults run(LivePreset p) throws Exception {
        Scenario s = ScenarioJson.read(p.scenarioFile(), FabricReader.FILES);
        return s.simulator(s.config()).run();
    }

    /**
     * Eight 100G senders under leaf2 into its two 400G uplinks: 8 x 100 = 800 Gb/s = 2 x 400, so a
     * 4:4 split would just fit. Seed 1 hashes six flows onto spine2 and two onto spine1: 600 Gb/s
     * offered to a 400 Gb/s uplink, so leaf2's spine2 port (eth10) holds the largest queue, PFC
     * pauses the senders, and the six flows of 3 MB share 400 Gb/s: 6 x 3 MB x 8 / 400 Gb/s = 360 us
     * at the least, against 3 MB x 8 / 100 Gb/s = 240 us for each flow alone.
     */
    @Test
    void theEcmpCollisionPresetCrowdsOneUplinkWhileTheOtherHasRoom() throws Exception {
        SimResults r = run(LivePreset.ECMP_COLLISION);
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        long viaSpine2 = r.flows().stream().filter(f -> f.path().stream().anyMatch(h -> h.startsWith("spine2:"))).count();
        assertEquals(6, viaSpine2, "six of eight flows hashed onto leaf2--spine2");
        assertEquals("leaf2:eth10 tc3", r.summary().maxQueue());
        assertTrue(r.summary().pauseFramesSent() > 0, "PFC pauses the senders behind the crowded uplink");
        assertTrue(r.summary().fctMaxUs() >= 360.0, "fct " + r.summary().fctMaxUs());
        assertEquals(0, r.summary().drops());
    }

    /**
     * The DCQCN preset shows what its text says, against the PFC-only storm of the same incast (8 x
     * 2 MB into server01, PFC XOFF 300 KB). With ECN from Kmin 100 KB, below XOFF, marks start
     * before the ingress groups reach XOFF and DCQCN cuts every sender: fewer than half the
     * PAUSE frames, and none after 800 us, while PFC alone pauses to the end. DCQCN cuts each
     * sender at most every CNP interval (50 us) by at most half, and recovers only every 300 us
     * or 10 MB, so the senders end below their share: the last flow ends later than PFC alone
     * (16 MB at 100 Gb/s, 1.28 ms at the least). With the production thresholds (Kmin 400 KB) the
     * spine1 ingress, carrying six of the eight flows, passes its 300 KB XOFF before the egress
     * queue reaches Kmin: PFC acts first and the picture is nearly the storm's (208 PAUSE frames
     * against 271).
     */
    @Test
    void theDcqcnPresetStopsThePausesThatPfcAloneKeepsSending() throws Exception {
        SimResults dcqcn = run(LivePreset.ECN_DCQCN);
        SimResults pfc = run(LivePreset.PFC_SPREADING);
        long[] at = {100, 300, 700, 1300, 2600};
        StringBuilder line = new StringBuilder("pauses / CNPs so far at");
        for (long us : at) {
            long tp = us * 1_000_000L;
            line.append(String.format(" %d us: %d/%d vs %d/0;", us,
                    dcqcn.pfcEvents().stream().filter(e -> e.quanta() > 0 && e.timePs() <= tp).count(),
                    dcqcn.dcqcnReactions().reactions().stream().filter(x -> x.timePs() <= tp).count(),
                    pfc.pfcEvents().stream().filter(e -> e.quanta() > 0 && e.timePs() <= tp).count()));
        }
        System.out.println(line);
        assertEquals(8, dcqcn.run().flowsCompleted());
        assertTrue(dcqcn.summary().cnpsSent() > 0 && dcqcn.summary().ecnMarked() > 0);
        assertTrue(2 * dcqcn.summary().pauseFramesSent() < pfc.summary().pauseFramesSent(),
                dcqcn.summary().pauseFramesSent() + " vs " + pfc.summary().pauseFramesSent());
        assertTrue(dcqcn.pfcEvents().stream().noneMatch(e -> e.quanta() > 0 && e.timePs() > 800_000_000L),
                "no PAUSE after 800 us");
        assertTrue(pfc.pfcEvents().stream().anyMatch(e -> e.quanta() > 0 && e.timePs() > 1_200_000_000L),
                "PFC alone pauses to the end");
        assertTrue(dcqcn.summary().fctMaxUs() > pfc.summary().fctMaxUs());
        assertTrue(pfc.summary().fctMaxUs() >= 1280.0);
    }

    /**
     * After the two failures leaf3 reaches only spine1 and leaf4 only spine2: leaf3 <-> leaf4
     * traffic bounces spine -> leaf1/leaf2 -> spine, and the incasts pause that cycle until the
     * simulator reports a deadlock on its four ports and no flow completes.
     */
    @Test
    void theDeadlockPresetFreezesACycleOfPauses() throws Exception {
        SimResults r = run(LivePreset.DEADLOCK);
        assertFalse(r.deadlocks().isEmpty(), "a deadlock is reported");
        assertEquals(java.util.Set.of("leaf1:eth9", "leaf2:eth10", "spine1:eth2", "spine2:eth1"),
                java.util.Set.copyOf(r.deadlocks().get(0).ports()));
        assertEquals(0, r.run().flowsCompleted(), "traffic stops");
        assertTrue(r.run().reroutes() >= 1);
        // Issue 35 item 3: the live view's ending names the deadlock, never the raw stop reason, and
        // the report's flow completion times say no flow completed instead of 0.0 us.
        String ending = LiveViewModel.endingText(r, io.fabriclab.model.Transport.ROCEV2);
        assertTrue(ending.startsWith("Stopped: PFC deadlock on priority " + r.deadlocks().get(0).priority() + " at "),
                ending);
        assertTrue(ending.contains("no flow completed (0 of " + r.run().flows() + ")"), ending);
        assertFalse(ending.contains("time_limit"), ending);
        assertEquals("no flow completed", io.fabriclab.report.RunEnding.fct(r, r.summary().fctP50Us()));
    }
}
