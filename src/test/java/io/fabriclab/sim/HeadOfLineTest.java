package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSpec;

class HeadOfLineTest {

    static Fabric fabric() {
        // leaf0 -(200G)- spine0 -(200G)- leaf1, 5 servers per leaf at 100G, 1 m cables, PFC only
        // (XOFF 100 KB, XON 80 KB, headroom 100 KB: HeadroomCalculator asks 99,206 B for 200G, 1 m), no ECN, no DCQCN.
        return TestFabrics.leafSpine(2, 1, 5, 100, 200, 1.0, IncastTest.pfcOnly(100_000, 80_000, 100_000));
    }

    static List<FlowSpec> longFlows() {
        // Victim V: s0_0 -> s1_0 (uncongested receiver). L: s0_1 -> s1_1. Both share leaf0 -> spine0 -> leaf1.
        List<FlowSpec> f = new ArrayList<>();
        f.add(new FlowSpec("s0_0:nic0", "s1_0:nic0", 8_000_000, 0, 3, "victim"));
        f.add(new FlowSpec("s0_1:nic0", "s1_1:nic0", 8_000_000, 0, 3, "long"));
        return f;
    }

    @Test
    void anIncastBehindOneLongFlowPausesTheSharedLinkAndSlowsAnInnocentVictim() {
        SimResults alone = new Simulator(fabric(), longFlows(), SimConfig.defaults()).run();
        List<FlowSpec> withIncast = longFlows();
        // A short 3:1 incast from s1_2..s1_4 to s1_1 at 200 us: leaf1 -> s1_1 is oversubscribed 4:1
        // (L plus three local senders); L's packets from the spine fill leaf1's spine-facing ingress
        // past XOFF, so leaf1 pauses spine0 -> leaf1 on priority 3, which also stops V.
        for (int i = 2; i <= 4; i++) {
            withIncast.add(new FlowSpec("s1_" + i + ":nic0", "s1_1:nic0", 1_000_000, 200_000_000, 3, "incast"));
        }
        SimResults hol = new Simulator(fabric(), withIncast, SimConfig.defaults()).run();

        assertEquals(0, hol.summary().drops());
        SimResults.PfcResult spineToLeaf1 = hol.pfc().stream()
                .filter(p -> p.port().equals("spine0:eth1") && p.priority() == 3).findFirst().orElseThrow();
        assertTrue(spineToLeaf1.pauseFramesReceived() > 0, "the shared link was paused");
        long paused = spineToLeaf1.pausedPs();
        assertTrue(paused > 0);

        long vAlone = alone.flows().get(0).fctPs();
        long vHol = hol.flows().get(0).fctPs();
        // Alone, V runs at its 100G line rate: 8 MB = 1934 packets of 4220 B on the wire -> 652.9 us
        // plus the path latency.
        assertTrue(vAlone < 660_000_000L, "V alone " + vAlone);
        // Derivation of the dip: V's packets cross spine0 -> leaf1; while that port is paused V
        // makes no progress there, and V's own sender is in turn paused by leaf0 once leaf0's
        // ingress from s0_0 passes XOFF. V therefore loses time of the order of the shared link's
        // paused time: at least half of it (V still drains what was already past the spine) and
        // at most that time plus the time to drain the incast (3 MB at 100G = 240 us).
        long slowdown = vHol - vAlone;
        System.out.printf("victim alone %.1f us, with incast %.1f us, slowdown %.1f us, spine0->leaf1 paused %.1f us%n",
                vAlone / 1e6, vHol / 1e6, slowdown / 1e6, paused / 1e6);
        assertTrue(slowdown > paused / 2, "victim slowed by " + slowdown + " ps; shared link paused " + paused);
        assertTrue(slowdown < paused + 240_000_000L, "victim slowed by " + slowdown + " ps; paused " + paused);
        // The dip is visible in the victim's last-hop utilization: some sample falls below half.
        SimResults.LinkResult last = hol.links().stream().filter(l -> l.from().equals("leaf1:down0")).findFirst().orElseThrow();
        double min = 1;
        long[] t = last.utilization().timesPs();
        double[] u = last.utilization().values();
        for (int i = 0; i < t.length; i++) {
            if (t[i] > 210_000_000L && t[i] < vHol - 20_000_000L) {
                min = Math.min(min, u[i]);
            }
        }
        assertTrue(min < 0.5, "victim's link dipped to " + min);
    }
}
