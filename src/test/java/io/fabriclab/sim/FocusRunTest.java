package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * The focus run (docs/model.md, Focus run): the packet flows keep their flow-run ECMP paths, the
 * background takes what the flow run says the other flows used, and with no background the run is
 * a plain packet run of the same flows posted at the same times.
 */
class FocusRunTest {
    private static final QosProfile QOS = QosProfile.roceLossless("lossless", 100);
    /** RoCEv2 at MTU 4200: 4,138 B of payload per packet, 4,220 B on the wire (SingleFlowTest). */
    private static final int PAYLOAD = 4138;
    private static final int FRAME = 4220;
    /** RoCEv2, every switch store-and-forward without pipeline latency (as the runs below set it). */
    private static final FocusRun.Timing ROCE = new FocusRun.Timing(Transport.ROCEV2, 0);

    private static FlowEngine flowEngine(Fabric f, List<FlowSpec> flows) {
        FlowEngine e = new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ROCEV2));
        e.setSwitchLatencyPs(0);
        return e;
    }

    /** The packet engine over a plan's flows, with its ports and background. */
    private static Simulator packet(Fabric f, FocusRun.Plan plan) {
        Simulator sim = new Simulator(f, plan.flows(), SimConfig.defaults());
        sim.setSwitchLatencyPs(0);
        plan.apply(sim);
        return sim;
    }

    /** A permutation on a k = 4 fat tree: host i to host (i + 8) mod 16, every flow through the core. */
    private static List<FlowSpec> permutation(long bytes) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            flows.add(new FlowSpec(host(i), host((i + 8) % 16), bytes, 0, 3));
        }
        return flows;
    }

    private static String host(int i) {
        return "h" + i + ":nic0"; // TestFabrics.fatTree numbers its hosts h0..h15, pod by pod
    }

    @Test
    void everyFocusFlowKeepsItsFlowRunPath() {
        Fabric f = TestFabrics.fatTree(4, 100, 2.0, QOS);
        List<FlowSpec> flows = permutation(50L * PAYLOAD);
        SimResults flowRun = flowEngine(f, flows).run(null);
        // A core switch: the flows ECMP put through it (a few of the 16).
        FocusRun.Focus focus = FocusRun.resolve(f, "core0");
        assertEquals(FocusRun.Kind.DEVICE, focus.kind());
        FocusRun.Plan plan = FocusRun.plan(f, flows, flowRun, focus, ROCE, () -> flowEngine(f, flows));
        assertTrue(plan.flows().size() >= 2 && plan.flows().size() < 16, "flows through core0: " + plan.flows().size());
        SimResults r = packet(f, plan).run();
        FocusRun.Result cmp = FocusRun.compare(plan, flowRun, r);
        for (FocusRun.FlowComparison c : cmp.flows()) {
            assertEquals(c.flowPath(), c.packetPath(), "flow " + c.flowRunId());
            assertTrue(c.flowPath().stream().anyMatch(p -> p.startsWith("core0:")), "crosses core0: " + c.flowPath());
        }
        // Without the flow run's ports the packet engine draws the subset's ports afresh, in order
        // from the seed: other ports (and so other ECMP paths in general).
        SimResults plain = new Simulator(f, plan.flows(), SimConfig.defaults()).run();
        int[] drawn = plain.flows().stream().mapToInt(SimResults.FlowResult::udpSourcePort).toArray();
        assertNotEquals(java.util.Arrays.toString(plan.udpSourcePorts()), java.util.Arrays.toString(drawn));
        assertArrayEquals(plan.udpSourcePorts(), r.flows().stream().mapToInt(SimResults.FlowResult::udpSourcePort).toArray());
    }

    @Test
    void aFocusFlowGetsTheLineRateLessTheBackground() {
        // Two leaves of two 100G servers, one spine, 100G uplinks, 2 m cables, store-and-forward
        // switches without pipeline latency. F: s0_0 -> s1_0, 250 full packets; G: s0_1 -> s1_1,
        // 1,000 full packets, both from 0. In the flow run both cross leaf0's uplink and spine0's
        // link to leaf1 and share them max-min: 50 Gb/s each while F lasts, so X = 50 Gb/s of
        // background on those two directions while F runs (G at 100 after F leaves is held to
        // n / (n + 1) = 1/2 by the floor). A rate change of G reaches each shared direction when
        // G's first frame would.
        Fabric f = TestFabrics.leafSpine(2, 1, 2, 100, 100, 2.0, QOS);
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 250L * PAYLOAD, 0, 3),
                new FlowSpec("s0_1:nic0", "s1_1:nic0", 1000L * PAYLOAD, 0, 3));
        SimResults flowRun = flowEngine(f, flows).run(null);
        FocusRun.Plan plan = FocusRun.plan(f, flows, flowRun, FocusRun.resolve(f, "s1_0:nic0"), ROCE,
                () -> flowEngine(f, flows));
        assertEquals(1, plan.flows().size());
        assertEquals(2, plan.background().size(), "leaf0:up0 and spine0:eth1");
        // G's rate reaches each direction when its first frame does: leaf0's uplink after its NIC's
        // serialization and one cable (337,600 + 10,000), spine0's link one more hop later.
        for (FocusRun.Background b : plan.background()) {
            assertEquals(b.fromRef().equals("leaf0:up0") ? 347_600 : 695_200, b.atPs()[0], b.fromRef());
            assertEquals(0.5, b.share()[0], 1e-9);
            assertEquals(0.5, b.peakShare(), 1e-9);
        }
        SimResults r = packet(f, plan).run();
        // C - X = 50 Gb/s on the two shared hops. The 250 frames cross leaf0's uplink back to back
        // at 50G (PFC holds the NIC, which sends at 100G, so that queue never empties); before it
        // the first frame's 100G serialization at the NIC; after it the last frame's at 50G on
        // spine0's link to leaf1 and at 100G on leaf1's link to s1_0; four cables of 10 ns.
        long ser100 = FRAME * 8L * 1000 / 100;
        long ser50 = FRAME * 8L * 1000 / 50;
        assertEquals(337_600, ser100);
        long expected = ser100 + 250 * ser50 + ser50 + ser100 + 4 * 10_000;
        long fct = r.flows().get(0).fctPs();
        assertEquals(expected, fct, expected * 0.01, "focus FCT " + fct + " ps, W / (C - X) + latency " + expected);
        // The flow run's own FCT is the same W / 50G: the focus run agrees with it here.
        FocusRun.Result cmp = FocusRun.compare(plan, flowRun, r);
        assertEquals(1.0, cmp.flows().get(0).ratio(), 0.02);
        assertEquals(flowRun.flows().get(0).path(), r.flows().get(0).path());
    }

    @Test
    void withNoBackgroundAFocusRunIsAPlainPacketRunOfTheSameFlows() {
        // One leaf pair, every flow through leaf0's uplink: the focus (leaf0's uplink) covers every
        // flow, so nothing is background and the packet run is the plain run of the same flows,
        // posted at their flow-run starts (here their own starts: nothing waits).
        Fabric f = TestFabrics.leafSpine(2, 1, 2, 100, 100, 2.0, QOS);
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 100L * PAYLOAD, 0, 3),
                new FlowSpec("s0_1:nic0", "s1_1:nic0", 80L * PAYLOAD, 5_000_000, 3));
        SimResults flowRun = flowEngine(f, flows).run(null);
        FocusRun.Plan plan = FocusRun.plan(f, flows, flowRun, FocusRun.resolve(f, "leaf0:up0 -> spine0:eth0"), ROCE,
                () -> {
                    throw new AssertionError("no background: the flow run is not run again");
                });
        assertEquals(2, plan.flows().size());
        assertTrue(plan.background().isEmpty());
        SimResults focus = packet(f, plan).run();
        // The same flows, the same ports (both drawn in order from the same seed), the same starts.
        Simulator plainSim = new Simulator(f, flows, SimConfig.defaults());
        plainSim.setSwitchLatencyPs(0);
        SimResults plain = plainSim.run();
        for (int i = 0; i < 2; i++) {
            assertEquals(plain.flows().get(i).fctPs(), focus.flows().get(i).fctPs());
            assertEquals(plain.flows().get(i).startPs(), focus.flows().get(i).startPs());
            assertEquals(plain.flows().get(i).path(), focus.flows().get(i).path());
        }
        assertEquals(plain.summary().ecnMarked(), focus.summary().ecnMarked());
        assertEquals(plain.summary().maxQueueBytes(), focus.summary().maxQueueBytes());
        assertEquals(plain.run().events(), focus.run().events());
    }

    @Test
    void aBadFocusNameSaysWhatIsAllowed() {
        Fabric f = TestFabrics.leafSpine(2, 1, 2, 100, 100, 2.0, QOS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FocusRun.resolve(f, "leaf9"));
        assertTrue(e.getMessage().startsWith("focus 'leaf9' in fabric ls: no such link, port, device, unit or pod"),
                e.getMessage());
        assertTrue(e.getMessage().contains("allowed: a link id (devA:portA--devB:portB)"), e.getMessage());
        assertTrue(e.getMessage().contains("e.g. spine0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FocusRun.resolve(f, "unit 4"));
        assertThrows(IllegalArgumentException.class, () -> FocusRun.resolve(f, "leaf0:up0 -> leaf1:up0"));
        assertThrows(IllegalArgumentException.class, () -> FocusRun.resolve(f, "leaf0:nope"));
        assertEquals(FocusRun.Kind.LINK, FocusRun.resolve(f, "leaf0:up0--spine0:eth0").kind());
        assertEquals(1, FocusRun.resolve(f, "s0_0").links().size());
        // Units are numbered from 1 as the drawing numbers them (the model stores 0): leaf0 and its
        // two servers as unit 1 are its 2 server links and its uplink.
        for (String d : List.of("leaf0", "s0_0", "s0_1")) {
            f.device(d).setUnit(0);
        }
        FocusRun.Focus unit = FocusRun.resolve(f, "unit 1");
        assertEquals(FocusRun.Kind.UNIT, unit.kind());
        assertEquals(3, unit.links().size());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> FocusRun.resolve(f, "unit 0"));
        assertTrue(zero.getMessage().contains("units are numbered from 1"), zero.getMessage());
    }

    @Test
    void theBackgroundShareSlowsAPortsSerialization() {
        // The packet engine alone: one 100G hop carrying 30 % background from 0 serializes each
        // frame at 70 Gb/s. s0_0 -> s1_0 on a 100G leaf-spine, background on every direction of
        // the path: 100 frames, the bottleneck is every hop at 70G.
        Fabric f = TestFabrics.leafSpine(2, 1, 1, 100, 100, 2.0, QOS);
        Simulator sim = new Simulator(f, List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 100L * PAYLOAD, 0, 3)),
                SimConfig.defaults());
        sim.setSwitchLatencyPs(0);
        for (String p : List.of("s0_0:nic0", "leaf0:up0", "spine0:eth1", "leaf1:down0")) {
            sim.setBackground(f.port(p), new long[] {0}, new double[] {0.3});
        }
        long fct = sim.run().flows().get(0).fctPs();
        long ser70 = Math.round(FRAME * 8.0 * 1000 / 70);
        // 100 frames leave the NIC back to back at 70G, the last then crosses three more hops at 70G.
        long expected = 100 * ser70 + 3 * ser70 + 4 * 10_000;
        assertEquals(expected, fct, 100 * 4, "fct " + fct);
    }

    @Test
    void aSprayedRunsBackgroundIsTheEvenSplitOfTheOtherFlows() {
        // Ultra Ethernet sprays: two leaves of two 100G servers, two spines, 100G uplinks. F: s0_0 ->
        // s1_0, G: s0_1 -> s1_1, both from 0. Each is split evenly over spine0 and spine1, so each
        // uplink carries 50 + 50 Gb/s and both flows run at their NICs' 100G. Focus s1_0's link:
        // F alone; G's background is 100G x 1/2 = half of leaf0:up0, leaf0:up1, spine0:eth1 and
        // spine1:eth1. F, sprayed in the packet run, gets the other halves.
        Fabric f = TestFabrics.leafSpine(2, 2, 2, 100, 100, 2.0, QOS);
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 200L * PAYLOAD, 0, 3),
                new FlowSpec("s0_1:nic0", "s1_1:nic0", 200L * PAYLOAD, 0, 3));
        java.util.function.Supplier<FlowEngine> engine = () -> {
            FlowEngine e = new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ULTRA_ETHERNET));
            e.setSwitchLatencyPs(0);
            return e;
        };
        SimResults flowRun = engine.get().run(null);
        FocusRun.Plan plan = FocusRun.plan(f, flows, flowRun, FocusRun.resolve(f, "s1_0:nic0"),
                new FocusRun.Timing(Transport.ULTRA_ETHERNET, 0), engine);
        assertTrue(plan.sprayed());
        assertEquals(1, plan.flows().size());
        List<String> shared = plan.background().stream().map(FocusRun.Background::fromRef).sorted().toList();
        assertEquals(List.of("leaf0:up0", "leaf0:up1", "spine0:eth1", "spine1:eth1"), shared);
        for (FocusRun.Background b : plan.background()) {
            assertEquals(0.5, b.share()[0], 1e-6, b.fromRef());
        }
        Simulator sim = new Simulator(f, plan.flows(), SimConfig.defaults(), QosResolver.of(f),
                TransportProfile.of(Transport.ULTRA_ETHERNET));
        sim.setSwitchLatencyPs(0);
        plan.apply(sim);
        SimResults r = sim.run();
        assertEquals(1, r.run().flowsCompleted());
        // What the focus run stands for: the packet run of both flows. There F takes 92.7 us (the
        // flow run's fluid 69.2 us; F alone 84.2 us: NSCC's start and spraying's reordering);
        // in the focus run G's half of each uplink is fixed while F's packets are sprayed at
        // random, so an uplink that draws more of them queues where G would have yielded:
        // 104.3 us, 12.5 % above the run of both (docs/validation.md). Within 15 %:
        Simulator both = new Simulator(f, flows, SimConfig.defaults(), QosResolver.of(f),
                TransportProfile.of(Transport.ULTRA_ETHERNET));
        both.setSwitchLatencyPs(0);
        long full = both.run().flows().get(0).fctPs();
        long focused = r.flows().get(0).fctPs();
        assertEquals(1.0, (double) focused / full, 0.15, "focus " + focused + " ps, packet run of both " + full + " ps");
        assertTrue(focused >= full, "a background that never yields slows F, never speeds it");
    }

    @Test
    void anOtherFlowsRateReachesEachHopWhenItsFirstFrameWould() {
        // Two leaves of two 100G servers, one spine, 400G uplinks, 2 m cables, the switches' own
        // latency: cut-through Ethernet, 300 ns port to port, less the smaller of the ingress and
        // egress serializations of a full frame (docs/model.md, Switch port-to-port latency).
        // F: s0_0 -> s1_0 (the focus), G: s0_1 -> s1_1, both from 0; G moves at its NIC's 100G,
        // a quarter of each shared uplink direction, from when its first frame gets there:
        //   leaf0:up0:   G's NIC serialization 337,600 + 10,000 of cable, then leaf0 (100G in, 400G
        //                out): 300,000 - 84,400 = 215,600: 563,200 ps;
        //   spine0:eth1: + 84,400 on the uplink + 10,000, then spine0 (400G in and out): 215,600:
        //                873,200 ps.
        Fabric f = TestFabrics.leafSpine(2, 1, 2, 100, 400, 2.0, QOS);
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 100L * PAYLOAD, 0, 3),
                new FlowSpec("s0_1:nic0", "s1_1:nic0", 100L * PAYLOAD, 0, 3));
        java.util.function.Supplier<FlowEngine> engine = () -> new FlowEngine(f, flows, SimConfig.defaults(),
                TransportProfile.of(Transport.ROCEV2));
        SimResults flowRun = engine.get().run(null);
        FocusRun.Plan plan = FocusRun.plan(f, flows, flowRun, FocusRun.resolve(f, "s1_0:nic0"),
                new FocusRun.Timing(Transport.ROCEV2, -1), engine);
        assertEquals(2, plan.background().size());
        for (FocusRun.Background b : plan.background()) {
            assertEquals(b.fromRef().equals("leaf0:up0") ? 563_200 : 873_200, b.atPs()[0], b.fromRef());
            assertEquals(0.25, b.share()[0], 1e-9, b.fromRef());
        }
    }
}
