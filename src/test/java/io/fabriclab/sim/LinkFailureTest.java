package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSpec;

class LinkFailureTest {
    static final long US = 1_000_000L;

    static Fabric fabric() {
        // Two leaves, two spines, one 100G server per leaf, 100G uplinks, PFC only.
        return TestFabrics.leafSpine(2, 2, 1, 100, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
    }

    static final List<FlowSpec> FLOW = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 8_000_000, 0, 3));

    @Test
    void aFailedUplinkLosesWhatIsOnItAndTrafficMovesToTheOtherSpineAfterReconvergence() {
        SimResults alone = new Simulator(fabric(), FLOW, SimConfig.defaults()).run();
        String uplink = alone.flows().get(0).path().get(1);

        Fabric f = fabric();
        Simulator sim = new Simulator(f, FLOW, SimConfig.defaults());
        sim.setReconvergencePs(50 * US);
        sim.scheduleFailure(new LinkFailure(f.findLink(uplink), 100 * US, 0));
        SimResults r = sim.run();

        SimResults.FlowResult fr = r.flows().get(0);
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertTrue(r.summary().linkDownDrops() > 0, "frames on and behind the dead link are lost");
        assertEquals(1, r.run().reroutes());
        assertNotEquals(uplink, fr.path().get(1), "rerouted over the other spine");
        assertTrue(fr.retransmittedBytes() > 0);
        // From the failure (100 us) until routing reconverges (150 us) the NIC keeps sending at line
        // rate into the dead path (50 us x 100G = 148 frames lost at leaf0). The first packet on the
        // new path arrives out of order, its NAK makes the sender go back to the first lost PSN, so
        // the outage's 50 us of sending are wasted and repeated: the flow finishes 50 us plus about a
        // NAK round trip (a few us on this 3-hop path) later than alone.
        long extra = fr.fctPs() - alone.flows().get(0).fctPs();
        System.out.printf("link failure: alone %.1f us, with failure %.1f us (+%.1f us), link-down drops %d, retransmitted %d B, stall %.1f us%n",
                alone.flows().get(0).fctPs() / 1e6, fr.fctPs() / 1e6, extra / 1e6, r.summary().linkDownDrops(),
                fr.retransmittedBytes(), fr.stallPs() / 1e6);
        assertTrue(extra >= 50 * US && extra <= 60 * US, "extra " + extra);
    }

    @Test
    void aLinkThatComesBackIsUsedAgainAfterReconvergence() {
        SimResults alone = new Simulator(fabric(), FLOW, SimConfig.defaults()).run();
        String uplink = alone.flows().get(0).path().get(1);
        Fabric f = fabric();
        Simulator sim = new Simulator(f, FLOW, SimConfig.defaults());
        sim.setReconvergencePs(20 * US);
        sim.scheduleFailure(new LinkFailure(f.findLink(uplink), 100 * US, 200 * US));
        SimResults r = sim.run();
        assertEquals(2, r.run().reroutes());
        // The ECMP hash is a function of the 5-tuple and the seed: with both uplinks back, the flow
        // returns to its original one.
        assertEquals(uplink, r.flows().get(0).path().get(1));
        assertEquals(1, r.run().flowsCompleted());
    }

    @Test
    void aLinkDegradedTo25gDuringARunSerializesAtTheNewRateFromThen() {
        // s0 -> leaf0 -> s1, 100G, 1 m; 8 MB = 1933 full frames (4220 B on the wire) + one of 1,328 B.
        Fabric f = TestFabrics.star(2, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        Simulator sim = new Simulator(f, List.of(new FlowSpec("s0:nic0", "s1:nic0", 8_000_000, 0, 3)), SimConfig.defaults());
        sim.scheduleFailure(new LinkFailure(f.linkAt(f.port("s1:nic0")), 100 * US, 0, 25));
        SimResults r = sim.run();
        // leaf0 is an Ethernet cut-through switch (300 ns, SwitchPipelineTest): each frame claims
        // the idle egress leaf0 -> s1 when its head is in (frame k's at 5,000 + k * 337,600 ps, as
        // frame k-1 leaves), and reaches s1 L = 300,000 ps after the end of its sending plus the
        // cable. Frames 0..296 start before 100 us (296 * 337,600 + 5,000 = 99,934,600) and go at
        // 100G, the last of them ending at 100,272,200. The other 1,636 full frames (1,350,400 ps
        // each at 25G) and the 1,328 B one (424,960 ps) follow back to back (PFC holds the rest at
        // s0), then 5,000 ps of cable and L. (The new rate applies from the egress's sending time,
        // L before the bits on the wire: frame 296's bits leave at 100,234,600 ps at 100G.
        // Before 2026-11-29 the switch sent a frame from its last bit: frames 0..295 at 100G, 1,012,800
        // ps later.)
        long expected = 100_272_200L + 1_636L * 1_350_400 + 424_960 + 5_000 + 300_000;
        assertEquals(expected, r.flows().get(0).fctPs());
        assertEquals(0, r.summary().drops());
    }
}
