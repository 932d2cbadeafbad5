package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * The flow-level engine against figures derived by hand (docs/model.md, The flow-level engine):
 * max-min shares, line rate, oversubscription, a failed link, the packet engine's own latency for
 * a flow alone, and its NVLink and compute tasks.
 */
class FlowEngineTest {
    private static final QosProfile QOS = QosProfile.roceLossless("lossless", 100);
    /** RoCEv2 at MTU 4200: 4,138 B of payload per packet (SingleFlowTest), 4,220 B on the wire. */
    private static final int PAYLOAD = 4138;
    private static final int FRAME = 4220;

    private static FlowEngine engine(Fabric f, List<FlowSpec> flows) {
        return new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ROCEV2));
    }

    /** Wire bytes of a flow of {@code packets} full packets. */
    private static long wire(int packets) {
        return (long) packets * FRAME;
    }

    /** Picoseconds to move {@code bytes} at {@code gbps}. */
    private static long at(long bytes, double gbps) {
        return (long) Math.ceil(bytes * 8 / gbps * 1000);
    }

    @Test
    void aFlowAloneTakesThePacketEnginesTimeToTheLastPicosecond() {
        // SingleFlowTest's path: s0_0 -(100G)- leaf0 -(400G)- spine0 -(400G)- leaf1 -(100G)- s1_0, 2 m
        // a hop, three cut-through Ethernet switches of 300 ns. The packet engine: 2,543,600 ps for
        // 4 full packets; 2,292,560 ps for 3 full packets and one of 1,000 B.
        Fabric f = TestFabrics.leafSpine(2, 1, 1, 100, 400, 2.0, QOS);
        // Fluid: the 16,880 wire bytes leave the NIC in 1,350,400 ps; the last packet then crosses
        // 4 links (4 x 10,000 ps) and the switches: leaf0 100->400 and spine0 400->400 add their
        // 300,000 ps, leaf1 400->100 adds 300,000 + 337,600 - 84,400 (its egress serialization
        // beyond the ingress one): 1,350,400 + 40,000 + 300,000 + 300,000 + 553,200 = 2,543,600.
        SimResults r = engine(f, List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 4L * PAYLOAD, 0, 3))).run(null);
        assertEquals(2_543_600, r.flows().get(0).fctPs());
        assertEquals(List.of("s0_0:nic0", "leaf0:up0", "spine0:eth1", "leaf1:down0"), r.flows().get(0).path());
        // A short last packet (1,082 B on the wire) catches up with the third full one and waits
        // behind it on the last hop: the full one left the NIC 86,560 ps before the end of the
        // 13,742 wire bytes (1,099,360 ps) and takes 1,193,200 ps (as above); the short one arrives
        // one 100G serialization of its own (86,560) after it:
        // 1,099,360 - 86,560 + 1,193,200 + 86,560 = 2,292,560.
        SimResults s = engine(f, List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 3L * PAYLOAD + 1000, 0, 3))).run(null);
        assertEquals(2_292_560, s.flows().get(0).fctPs());
        assertEquals("flow", s.run().engine());
        assertEquals(SimResults.StopReason.COMPLETED, s.run().stopReason());
    }

    @Test
    void flowsShareLinksMaxMinFairAsProgressiveFillingDerivesIt() {
        // Two leaves of three 100G servers, one spine, 200G uplinks. f0: s0_0 -> s1_0, f1: s0_1 ->
        // s1_0, f2: s0_2 -> s1_1, each 250 full packets. Progressive filling (Bertsekas-Gallager
        // 6.5.2): all three rise together; at 50 Gb/s s1_0's 100G downlink is full (f0 + f1), so f0
        // and f1 freeze at 50; leaf0's 200G uplink has 100 left for f2, which rises to 100 where its
        // own NIC (and the uplink) fill. f2 finishing frees nothing f0 and f1 could use (their
        // bottleneck is the downlink), so they keep 50 to the end.
        Fabric f = TestFabrics.leafSpine(2, 1, 3, 100, 200, 2.0, QOS);
        long bytes = 250L * PAYLOAD;
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", bytes, 0, 3),
                new FlowSpec("s0_1:nic0", "s1_0:nic0", bytes, 0, 3),
                new FlowSpec("s0_2:nic0", "s1_1:nic0", bytes, 0, 3));
        FlowEngine e = engine(f, flows);
        e.setSwitchLatencyPs(0); // store-and-forward, no pipeline: latency = propagation + serializations
        SimResults r = e.run(null);
        // After the drain: 4 links x 10,000 ps, and one full frame's serialization at each switch's
        // egress: 200G (42,200 ps), 200G (42,200), 100G (337,600... 84,400 at 400G): here 200, 200, 100.
        long latency = 4 * 10_000 + at(FRAME, 200) + at(FRAME, 200) + at(FRAME, 100);
        assertEquals(40_000 + 168_800 + 168_800 + 337_600, latency);
        long w = wire(250);
        assertEquals(at(w, 50) + latency, r.flows().get(0).fctPs());
        assertEquals(at(w, 50) + latency, r.flows().get(1).fctPs());
        assertEquals(at(w, 100) + latency, r.flows().get(2).fctPs());
        // The rates (payload Gb/s): 50 and 100 on the wire, times payload / wire bytes.
        assertEquals(50.0 * PAYLOAD / FRAME, r.flows().get(0).minRateGbps(), 1e-9);
        assertEquals(100.0 * PAYLOAD / FRAME, r.flows().get(2).minRateGbps(), 1e-9);
    }

    @Test
    void aPermutationOnANonBlockingFatTreeRunsAtLineRateWhenSprayed() {
        // k = 4 fat tree, 16 hosts at 100G: host i sends to host (i + 8) mod 16 (every flow crosses
        // the core). Spraying splits each flow evenly over the 2 x 2 core paths: every link carries
        // at most its capacity, so every flow moves at 100G, the fabric being non-blocking.
        Fabric f = TestFabrics.fatTree(4, 100, 2.0, QOS);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            flows.add(new FlowSpec("h" + i + ":nic0", "h" + ((i + 8) % 16) + ":nic0", 100L * PAYLOAD, 0, 3));
        }
        FlowEngine sprayed = engine(f, flows);
        sprayed.setRoutingPolicy(RoutingPolicy.of(RoutingMode.SPRAY));
        sprayed.setSwitchLatencyPs(0);
        SimResults r = sprayed.run(null);
        // 6 links of 2 m, 5 store-and-forward switches at 100G.
        long latency = 6 * 10_000 + 5 * at(FRAME, 100);
        for (SimResults.FlowResult fr : r.flows()) {
            assertEquals(at(wire(100), 100) + latency, fr.fctPs(), fr.src());
        }
        // Per-flow ECMP collides (two flows hashed onto one uplink share it): some flow is slower,
        // and every path is the one the packet engine takes with the same seed.
        SimResults ecmp = engine(f, flows).run(null);
        SimResults packets = new Simulator(f, flows, SimConfig.defaults()).run();
        for (int i = 0; i < flows.size(); i++) {
            assertEquals(packets.flows().get(i).path(), ecmp.flows().get(i).path());
            assertEquals(packets.flows().get(i).udpSourcePort(), ecmp.flows().get(i).udpSourcePort());
        }
        long slowest = ecmp.flows().stream().mapToLong(SimResults.FlowResult::fctPs).max().orElseThrow();
        assertTrue(slowest > at(wire(100), 100) + 6 * 10_000 + 5 * 300_000, "ECMP collisions slow a flow");
    }

    @Test
    void aTwoToOneOversubscribedLeafGivesHalfTheLineRate() {
        // Two leaves of four 100G servers, one spine with a 200G uplink per leaf: 400G of servers
        // over 200G, 2:1. Four flows leaf0 -> leaf1 share the uplink: 50G each, half the line rate.
        Fabric f = TestFabrics.leafSpine(2, 1, 4, 100, 200, 2.0, QOS);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flows.add(new FlowSpec("s0_" + i + ":nic0", "s1_" + i + ":nic0", 100L * PAYLOAD, 0, 3));
        }
        FlowEngine e = engine(f, flows);
        e.setSwitchLatencyPs(0);
        SimResults r = e.run(null);
        long latency = 4 * 10_000 + 2 * at(FRAME, 200) + at(FRAME, 100);
        for (SimResults.FlowResult fr : r.flows()) {
            assertEquals(at(wire(100), 50) + latency, fr.fctPs(), fr.src());
        }
        // The uplink carried all of it: 400 x 4,220 wire bytes, busy the whole drain.
        SimResults.LinkResult up = r.links().stream().filter(l -> l.from().equals("leaf0:up0")).findFirst().orElseThrow();
        assertEquals(4 * wire(100), up.frameBytes());
    }

    @Test
    void aFailedSpineLinksTrafficMovesToTheOtherSpineAsEcmpRecomputes() {
        // Two leaves, two spines, two 100G servers a leaf, 100G uplinks (non-blocking). leaf0's link
        // to spine0 fails at 0 and the routing reconverges at once; the flows start at 1 us, so both
        // take spine1 and share leaf0's one working uplink: 50G each.
        Fabric f = TestFabrics.leafSpine(2, 2, 2, 100, 100, 2.0, QOS);
        Link failed = f.links().stream().filter(l -> l.a().ref().equals("leaf0:up0") || l.b().ref().equals("leaf0:up0"))
                .findFirst().orElseThrow();
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 100L * PAYLOAD, 1_000_000, 3),
                new FlowSpec("s0_1:nic0", "s1_1:nic0", 100L * PAYLOAD, 1_000_000, 3));
        FlowEngine e = engine(f, flows);
        e.setSwitchLatencyPs(0);
        e.scheduleFailure(new LinkFailure(failed, 0, 0));
        SimResults r = e.run(null);
        long latency = 4 * 10_000 + 3 * at(FRAME, 100);
        for (SimResults.FlowResult fr : r.flows()) {
            assertTrue(fr.path().contains("leaf0:up1"), fr.path().toString());
            assertEquals(at(wire(100), 50) + latency, fr.fctPs());
        }
        assertEquals(1, r.run().reroutes());
        // Without the failure the same two flows are hashed apart or together: either way no flow is
        // slower than with one uplink.
        FlowEngine healthy = engine(f, flows);
        healthy.setSwitchLatencyPs(0);
        for (SimResults.FlowResult fr : healthy.run(null).flows()) {
            assertTrue(fr.fctPs() <= at(wire(100), 50) + latency);
        }
    }

    @Test
    void aLinkThatFailsMidFlowStopsItUntilTheRoutingReconverges() {
        // One flow over leaf0's uplink to spine0 (the only spine); the uplink fails 5 us in and comes
        // back at 15 us, the routing reconverging 1 us after each: the flow stops from 5 to 16 us
        // (11 us) and then moves the rest at line rate.
        Fabric f = TestFabrics.leafSpine(2, 1, 1, 100, 100, 2.0, QOS);
        Link up = f.links().stream().filter(l -> l.a().ref().equals("leaf0:up0") || l.b().ref().equals("leaf0:up0"))
                .findFirst().orElseThrow();
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 100L * PAYLOAD, 0, 3));
        FlowEngine e = engine(f, flows);
        e.setSwitchLatencyPs(0);
        e.setReconvergencePs(1_000_000);
        e.scheduleFailure(new LinkFailure(up, 5_000_000, 15_000_000));
        SimResults r = e.run(null);
        long latency = 4 * 10_000 + 3 * at(FRAME, 100);
        assertEquals(at(wire(100), 100) + 11_000_000 + latency, r.flows().get(0).fctPs(), 1);
    }

    @Test
    void nvlinkTransfersAndComputeTakeThePacketEnginesTimes() {
        // Two servers of 4 GPUs (H100 NVLink: 450 GB/s, 470 ns a hop): gpu0 -> gpu1 and gpu0 -> gpu2
        // share gpu0's NVLink (225 GB/s each), then gpu2 computes 3 us; a network flow waits for the
        // compute. Both engines move local work with the same model: the same times.
        io.fabriclab.model.ScaleUp h100 = io.fabriclab.model.ScaleUp.of("H100");
        Fabric f = TestFabrics.railStar(2, 4, 400, 2.0, QOS, h100, false);
        List<FlowSpec> tasks = List.of(
                new FlowSpec("s0:gpu0", "s0:gpu1", 9_000_000, 0, 3, "tp", "a", List.of(), FlowSpec.Kind.NVLINK, 0),
                new FlowSpec("s0:gpu0", "s0:gpu2", 9_000_000, 0, 3, "tp", "b", List.of(), FlowSpec.Kind.NVLINK, 0),
                new FlowSpec("s0:gpu2", "s0:gpu2", 0, 0, 3, "fwd", "c", List.of("b"), FlowSpec.Kind.COMPUTE, 3_000_000),
                new FlowSpec("s0:nic2", "s1:nic2", 40L * PAYLOAD, 0, 3, "dp", "d", List.of("c"), FlowSpec.Kind.NETWORK, 0));
        SimResults flow = engine(f, tasks).run(null);
        SimResults packet = new Simulator(f, tasks, SimConfig.defaults()).run();
        // 9 MB at 225 GB/s = 40 us after the 470 ns hop.
        assertEquals(470_000 + 40_000_000, flow.local().tasks().get(0).finishPs());
        for (int i = 0; i < 3; i++) {
            assertEquals(packet.local().tasks().get(i).finishPs(), flow.local().tasks().get(i).finishPs(), "task " + i);
        }
        assertEquals(packet.flows().get(0).fctPs(), flow.flows().get(0).fctPs());
        assertEquals(packet.flows().get(0).startPs(), flow.flows().get(0).startPs());
    }

    @Test
    void transfersSharingANicFinishInTheOrderItsRoundRobinSendsTheirLastFrames() {
        // Three 100G servers on one cut-through switch (300 ns), 1 m cables (5,000 ps). A frame of
        // 4,220 B takes 337,600 ps at 100G; a last packet's way is 5,000 + 300,000 + 5,000 =
        // 310,000 ps (the switch's egress is no slower than its ingress).
        Fabric f = TestFabrics.star(3, 100, 1.0, QOS);
        // Two transfers of 10 frames from s0, to s1 and to s2, posted together: the fluid shares
        // s0's wire evenly and both drain at 20 x 337,600 = 6,752,000 ps. The NIC sends them
        // a frame each in turn, the first posted first: its last frame left one frame (337,600)
        // before the end of the round, the other's at the end:
        // 6,752,000 - 337,600 + 310,000 = 6,724,400 and 6,752,000 + 310,000 = 7,062,000 (the first
        // arrived before the fluid's instant: a head start longer than its way; recorded when it
        // arrived).
        List<FlowSpec> together = List.of(new FlowSpec("s0:nic0", "s1:nic0", 10L * PAYLOAD, 0, 3),
                new FlowSpec("s0:nic0", "s2:nic0", 10L * PAYLOAD, 0, 3));
        SimResults r = engine(f, together).run(null);
        assertEquals(6_724_400, r.flows().get(0).fctPs());
        assertEquals(7_062_000, r.flows().get(1).fctPs());
        // The packet engine ends the round at the same picosecond. The first transfer is alone on
        // the wire for its first frame, which leaves the round robin's pointer at the front of the
        // NIC's list; the second joins at its end: the first keeps the first turn of every round
        // (the order the fluid's last round takes), its frames in slots 0, 1, 3, ..., 17, so it is
        // two frames ahead there:
        // 18 x 337,600 + 310,000 = 6,386,800.
        SimResults p = new Simulator(f, together, SimConfig.defaults()).run();
        assertEquals(6_386_800, p.flows().get(0).fctPs());
        assertEquals(7_062_000, p.flows().get(1).fctPs());
        // 10 and 20 frames: the shorter drains at 6,752,000 while the other goes on, its last frame
        // one frame ahead of the round's end (6,724,400 as above); the longer then sends its other
        // 10 frames alone: 6,752,000 + 3,376,000 + 310,000 = 10,438,000.
        List<FlowSpec> uneven = List.of(new FlowSpec("s0:nic0", "s1:nic0", 10L * PAYLOAD, 0, 3),
                new FlowSpec("s0:nic0", "s2:nic0", 20L * PAYLOAD, 0, 3));
        SimResults u = engine(f, uneven).run(null);
        assertEquals(6_724_400, u.flows().get(0).fctPs());
        assertEquals(10_438_000, u.flows().get(1).fctPs());
        SimResults pu = new Simulator(f, uneven, SimConfig.defaults()).run();
        assertEquals(6_386_800, pu.flows().get(0).fctPs());
        assertEquals(10_438_000, pu.flows().get(1).fctPs());
    }

    @Test
    void aRingOfFourFrameStepsOnStoreAndForwardSwitchesEndsWithThePacketEngine() {
        // The flat ring all-reduce of 1 MiB over the 16 hosts of a k=4 fat tree at 100G, MTU 9000
        // (8,938 B of payload a packet, 9,020 B on the wire: 721,600 ps), 2 channels: 30 steps of
        // 32 KiB per channel, each 3 full frames and a short one, the k=8 bench ring's steps
        // (docs/validation.md, Smaller all-reduces). Switches store-and-forward without a pipeline
        // (switch latency 0): a frame is queued when its last bit is in, in the order the packet
        // engine forwards, so what is left between the engines is the NIC: the fluid's last round
        // against the round robin, the ACKs on the wire (7 ns each) and the first step's extra
        // frame (transfersSharingANic... above). Measured: packet 195.06 us, flow 196.45 us
        // (+0.7 %). With the switches cut-through (300 ns) the packet engine took 171.88 us and
        // the fluid 161.85 (-5.8 %) before cut-through switches arbitrated at a packet's head: an
        // ACK queued at a receiver's downlink ahead of a data frame whose head came in first
        // delayed that frame and the frames behind it (docs/validation.md); this case keeps what
        // a cut-through switch does with a head that finds the wire busy out.
        Fabric f = TestFabrics.fatTree(4, 100, 2.0, QOS);
        f.setMtuBytes(9000);
        List<FlowSpec> flows = new io.fabriclab.workload.NcclCollective(io.fabriclab.workload.NcclCollective.Op.ALL_REDUCE,
                "ar", io.fabriclab.workload.Gpus.all(f), 1L << 20, io.fabriclab.workload.NcclCollective.Algorithm.RING,
                io.fabriclab.workload.NcclCollective.DEFAULT_CHANNELS_PER_RAIL, 3).flows(f);
        assertEquals(2 * 30 * 16, flows.size());
        assertEquals(32_768, flows.get(0).bytes());
        Simulator packets = new Simulator(f, flows, SimConfig.defaults());
        packets.setSwitchLatencyPs(0);
        FlowEngine fluid = engine(f, flows);
        fluid.setSwitchLatencyPs(0);
        double p = packets.run().lastFinishPs();
        double q = fluid.run(null).lastFinishPs();
        assertTrue(Math.abs(q - p) <= 0.015 * p, "flow " + q / 1e6 + " us against packet " + p / 1e6 + " us");
    }

    @Test
    void aLinkIntoANicThatEightOrMoreTransfersReachAtOnceIsNamedForThePacketEngineHoweverIdle() {
        // Twelve 100G servers on one switch. s1..s9 each send 10 frames to s0 at 0: nine transfers
        // arrive over leaf0 -> s0 at once (an incast of 9), busy 90 frames of the run. s10 sends two
        // transfers of 500 frames to s11 (two at once, a ring's two channels): 1,000 frames at
        // 100G keep s10's and s11's links busy the whole run (337.6 us), so s0's link is busy
        // 90 / 1,000 = 9 % of it, far under 90 %, and still named, after the two busy ones.
        Fabric f = TestFabrics.star(12, 100, 1.0, QOS);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 1; i <= 9; i++) {
            flows.add(new FlowSpec("s" + i + ":nic0", "s0:nic0", 10L * PAYLOAD, 0, 3));
        }
        flows.add(new FlowSpec("s10:nic0", "s11:nic0", 500L * PAYLOAD, 0, 3));
        flows.add(new FlowSpec("s10:nic0", "s11:nic0", 500L * PAYLOAD, 0, 3));
        SimResults r = engine(f, flows).run(null);
        java.util.Map<String, SimResults.LinkResult> by = new java.util.HashMap<>();
        r.links().forEach(l -> by.put(l.from() + " -> " + l.to(), l));
        assertEquals(9, by.get("leaf0:eth0 -> s0:nic0").incastDegree());
        assertEquals(2, by.get("leaf0:eth11 -> s11:nic0").incastDegree());
        assertEquals(0, by.get("s1:nic0 -> leaf0:eth1").incastDegree(), "not a link into a NIC");
        assertEquals(0.09, by.get("leaf0:eth0 -> s0:nic0").meanUtilization(), 0.005);
        List<String> hot = FlowEngine.packetLevelCandidates(r, FlowEngine.PACKET_LEVEL_UTILIZATION, 5);
        assertEquals(3, hot.size(), hot.toString());
        assertTrue(hot.get(0).endsWith("100 % busy") && hot.get(1).endsWith("100 % busy"), hot.toString());
        assertEquals("leaf0:eth0 -> s0:nic0 9 % busy, 9 transfers arriving at once", hot.get(2));
    }

    @Test
    void aFlowRunSaysWhatItDoesNotModel() {
        Fabric f = TestFabrics.star(2, 100, 1.0, QOS);
        SimResults r = engine(f, List.of(new FlowSpec("s0:nic0", "s1:nic0", 10L * PAYLOAD, 0, 3))).run(null);
        assertEquals(0, r.summary().pauseFramesSent());
        assertTrue(r.queues().isEmpty());
        assertTrue(r.pfc().isEmpty());
        assertNull(r.ultraEthernet());
        // Fully busy while the flow drained: its two link directions are listed for a closer look at
        // 50 %, equally busy, by name.
        List<String> hot = FlowEngine.packetLevelCandidates(r, 0.5, 3);
        assertEquals(2, hot.size(), hot.toString());
        assertTrue(hot.get(0).startsWith("leaf0:eth1 -> s1:nic0"), hot.toString());
        assertTrue(hot.get(1).startsWith("s0:nic0 -> leaf0:eth0"), hot.toString());
    }
}
