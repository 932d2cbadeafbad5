package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.workload.FlowSpec;

/** A spine that goes down: its flows move to the surviving spine exactly when routing reconverges. */
class SwitchFailureTest {
    static final long US = 1_000_000L;

    static Fabric fabric() {
        // Two leaves, two spines, two 100G servers per leaf, 100G uplinks.
        return TestFabrics.leafSpine(2, 2, 2, 100, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
    }

    static final List<FlowSpec> FLOWS = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 8_000_000, 0, 3),
            new FlowSpec("s0_1:nic0", "s1_1:nic0", 8_000_000, 0, 3));

    static double meanUtilization(SimResults r, String from, long t0, long t1) {
        SimResults.LinkResult l = r.links().stream().filter(x -> x.from().equals(from)).findFirst().orElseThrow();
        double sum = 0;
        int n = 0;
        for (int i = 0; i < l.utilization().timesPs().length; i++) {
            long t = l.utilization().timesPs()[i];
            if (t >= t0 && t < t1) {
                sum += l.utilization().values()[i];
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    @Test
    void theFlowsOfAFailedSpineMoveToTheOtherAfterTheReconvergenceDelay() {
        // A seed whose ECMP hash puts both flows on the same spine (probability 1/2 per seed).
        long seed = 1;
        SimResults healthy;
        while (true) {
            healthy = new Simulator(fabric(), FLOWS, SimConfig.defaults().withSeed(seed)).run();
            if (healthy.flows().get(0).path().get(1).equals(healthy.flows().get(1).path().get(1))) {
                break;
            }
            seed++;
        }
        String usedUplink = healthy.flows().get(0).path().get(1); // leaf0:upK
        String otherUplink = usedUplink.endsWith("0") ? "leaf0:up1" : "leaf0:up0";
        String spine = usedUplink.endsWith("0") ? "spine0" : "spine1";

        Fabric f = fabric();
        Simulator sim = new Simulator(f, FLOWS, SimConfig.defaults().withSeed(seed));
        sim.setReconvergencePs(50 * US);
        for (Port p : f.device(spine).ports()) {
            Link l = f.linkAt(p);
            if (l != null) {
                sim.scheduleFailure(new LinkFailure(l, 100 * US, 0));
            }
        }
        SimResults r = sim.run();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertTrue(r.summary().linkDownDrops() > 0, "what the spine held and what was on its wires is lost");
        for (SimResults.FlowResult fr : r.flows()) {
            assertEquals(otherUplink, fr.path().get(1), "moved to the surviving spine");
            assertTrue(fr.retransmittedBytes() > 0 && fr.stallPs() >= 50 * US);
        }
        // Both 100G flows share the surviving 100G uplink from then on. Before the failure it is
        // idle (both flows on the other spine); from 100 us to 150 us too: ECMP still sends into the
        // dead spine until routing reconverges; from 150 us plus a NAK round trip (a few us) it runs
        // at line rate: frames of 4,138 B + 82 B of header and gap, all on the wire.
        double before = meanUtilization(r, otherUplink, 0, 100 * US);
        double outage = meanUtilization(r, otherUplink, 100 * US, 150 * US);
        double after = meanUtilization(r, otherUplink, 170 * US, 600 * US);
        System.out.printf("surviving uplink utilization: before %.3f, 100-150 us %.3f, 170-600 us %.3f; link-down drops %d%n",
                before, outage, after, r.summary().linkDownDrops());
        assertEquals(0.0, before, 1e-9);
        assertEquals(0.0, outage, 1e-9);
        assertTrue(after > 0.97, "line rate after reconvergence: " + after);
        // The dead uplink carries nothing after the failure.
        assertEquals(0.0, meanUtilization(r, usedUplink, 110 * US, 600 * US), 1e-9);
    }
}
