package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * InfiniBand credit-based link-level flow control (docs/model.md, InfiniBand; docs/validation.md).
 * Every figure below is derived by hand in the comments.
 *
 * <p>Common numbers: the fabric MTU is 4200 B, so the IB path MTU is 4096 B (the largest of 256 ..
 * 4096 not above it) and a data packet is 4096 + LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 4122 B,
 * which costs ceil(4122 / 64) = 65 credits (64-byte blocks). An IB link has no preamble or gap:
 * 4122 B at 100 Gb/s (10 ps a bit) take 4122 * 8 * 10 = 329,760 ps; a 6-byte flow-control packet
 * 480 ps. Cables propagate at 5 ns/m.
 */
class InfinibandCreditTest {

    private static final long PKT_PS = 329_760;
    private static final long FC_PS = 480;
    private static final int PAYLOAD = 4096;
    /** leaf0's port-to-port latency: an InfiniBand (Quantum-class) switch, 150 ns (model.SwitchLatency). */
    private static final long L = 150_000;
    /**
     * leaf0 forwards cut-through: a packet that finds its egress free leaves as its head comes in,
     * its tail L - min(serIn, serOut) = 150,000 - 329,760 after a store-and-forward switch without
     * latency would finish sending it (SwitchPipelineTest); one that waited for credits with the
     * egress idle leaves L after it is sent.
     */
    private static final long CUT = L - PKT_PS;

    /** s0 -(100G, 2 m)- leaf0 -(100G, {@code farM})- s1. */
    private static Fabric longHaul(double farM) {
        Fabric f = new Fabric("longhaul");
        f.putQosProfile(QosProfile.roceLossless("lossless", 100));
        Device leaf = f.addDevice("leaf0", DeviceRole.LEAF);
        leaf.addPorts("eth", 0, 2, 100);
        Device s0 = TestFabrics.server(f, "s0", 100);
        Device s1 = TestFabrics.server(f, "s1", 100);
        f.connect(s0.port("nic0"), leaf.port("eth0"), 100, 2.0);
        f.connect(leaf.port("eth1"), s1.port("nic0"), 100, farM);
        return f;
    }

    private static SimResults runIb(Fabric f, List<FlowSpec> flows, int vlCreditBytes) {
        Simulator sim = new Simulator(f, flows, SimConfig.defaults(), QosResolver.of(f), Transport.INFINIBAND);
        sim.setVlCreditBytes(vlCreditBytes);
        return sim.run();
    }

    private static SimResults.CreditResult credit(SimResults r, String port, int vl) {
        return r.credits().stream().filter(c -> c.port().equals(port) && c.vl() == vl).findFirst().orElseThrow();
    }

    @Test
    void aTenKilometreLinkWithTooFewCreditsRunsAtCreditsOverRoundTrip() {
        // The 10 km hop leaf0 -> s1: propagation 10,000 m * 5 ns/m = 50 us = 50,000,000 ps each way.
        // Credit round trip R of one packet: its serialization 329,760 + 50,000,000 to s1, which (an
        // HCA) frees it on arrival and sends a flow-control packet at once (its port is idle):
        // 480 + 50,000,000 back. R = 100,330,240 ps.
        long r = PKT_PS + 50_000_000 + FC_PS + 50_000_000;
        assertEquals(100_330_240, r);
        // C = 128 KiB = 2048 blocks; a packet needs 65, so 31 packets (2015 blocks) fit in the
        // window. The bound C / R = 131,072 * 8 bit / 100.33 us = 10.45 Gb/s, far below 100 Gb/s:
        // the link is credit-bound. (Line rate would need C >= 100 Gb/s * R = 1.254 MB = 19,594
        // blocks; an IB VL can use at most 2048.) With whole packets the leaf sends 31 back to back,
        // then waits for the first credit to come back; from then on packet k+31 starts exactly R
        // after packet k: 31 packets per R = 31 * 4122 * 8 / R = 10.19 Gb/s on the wire,
        // 31 * 4096 * 8 / R = 10.12 Gb/s of payload.
        int windowPackets = 2048 / 65;
        assertEquals(31, windowPackets);
        double boundGbps = 131_072 * 8 * 1000.0 / r; // bits per ps * 1000 = Gb/s
        assertEquals(10.451, boundGbps, 0.001);
        double achievedWireGbps = windowPackets * 4122 * 8 * 1000.0 / r;
        assertEquals(10.189, achievedWireGbps, 0.001);
        assertTrue(achievedWireGbps <= boundGbps);

        // 310 packets = 10 windows. The first packet reaches leaf0 at 329,760 + 10,000 (2 m) =
        // 339,760 and the leaf starts it then (s0 keeps the leaf's queue full: its own hop's credit
        // loop is 2 * 10 ns + 330 ns long). Packet k starts at 339,760 + (k mod 31) * 329,760 +
        // (k div 31) * R; the last (k = 309) starts at 339,760 + 30 * 329,760 + 9 * R and is whole
        // at s1 329,760 + 50,000,000 later. One thing more is on the leaf's wire: s1's ACKs of the
        // previous window come back during each window, and the leaf returns their credits (one
        // block each) to s1 in 6-byte flow-control packets sent ahead of data, so each packet of
        // the last window may start up to 480 ps later: at most 31 * 480 = 14,880 ps in all.
        // leaf0's latency: the first window cuts through (CUT = -179,760 each, so its credits come
        // back that much sooner); every later window starts on an idle egress when a credit returns,
        // so its packets arrive L after they are sent and each later window takes R + L:
        // FCT = 339,760 + 31 * 329,760 + 9 * R + 50,000,000 + CUT + 9 * L.
        int packets = 310;
        long fct = 339_760 + 31 * PKT_PS + 9 * r + 50_000_000 + CUT + 9 * L;
        assertEquals(964_704_720L, fct);
        long fcSlack = 31 * FC_PS;
        SimResults res = runIb(longHaul(10_000), List.of(new FlowSpec("s0:nic0", "s1:nic0", (long) packets * PAYLOAD, 0, 3)),
                128 * 1024);
        assertEquals(SimResults.StopReason.COMPLETED, res.run().stopReason());
        long measured = res.flows().get(0).fctPs();
        assertTrue(measured >= fct && measured <= fct + fcSlack, "FCT " + measured);
        // Payload rate over the run: 310 * 4096 * 8 bit / 964.70 us = 10.53 Gb/s; it includes the
        // first window sent at line rate, so it is the steady 10.12 plus that head start, and
        // stays within the C / R bound plus one window over the run.
        double goodput = res.flows().get(0).throughputGbps();
        assertEquals(packets * 4096 * 8 * 1000.0 / measured, goodput, 1e-9);
        assertEquals(10.53, goodput, 0.01);
        // leaf0's egress to s1 waits for credits R - 31 * 329,760 = 90,107,680 ps in each of the 9
        // windows after the first, plus the latency: CUT before the second window, L before each of
        // the 8 others: 810,969,120 - 179,760 + 1,200,000 = 811,989,360 ps credit-stalled (less the
        // flow-control packets' 480 ps each that fill part of each wait: at most 9 * 31 * 480 = 133,920 ps).
        long stalled = credit(res, "leaf0:eth1", 3).creditStalledPs();
        long expectStalled = 9 * (r - 31 * PKT_PS) + CUT + 8 * L;
        assertEquals(811_989_360L, expectStalled);
        assertTrue(stalled <= expectStalled && stalled >= expectStalled - 9 * 31 * FC_PS, "stalled " + stalled);
        // Back-pressure reaches the source without a loss: no drops, no retransmission, and
        // leaf0's buffer for s0's VL held its whole advertised 31 packets (2015 blocks) at most.
        assertEquals(0, res.summary().drops());
        assertEquals(0, res.flows().get(0).retransmittedBytes());
        assertEquals(2015 * 64, credit(res, "leaf0:eth0", 3).maxHeldBytes());
        assertTrue(credit(res, "s0:nic0", 3).creditStalledPs() > 0);
    }

    @Test
    void theBoundScalesWithTheCredits() {
        // The same 10 km link with C = 32 KiB = 512 blocks: floor(512 / 65) = 7 packets a round trip.
        // 70 packets = 10 windows: FCT = 339,760 + 7 * 329,760 + 9 * R + 50,000,000
        //   = 339,760 + 2,308,320 + 902,972,160 + 50,000,000 = 955,620,240 ps, plus at most
        // 7 * 480 ps of flow-control packets in the last window (as above); leaf0's latency adds
        // CUT + 9 * L as above: 955,620,240 - 179,760 + 1,350,000 = 956,790,480.
        // Steady rate 7 * 4122 * 8 / (R + L) = 2.29 Gb/s, under C / R = 32,768 * 8 / R = 2.61 Gb/s.
        long r = 100_330_240;
        long fct = 339_760 + 7 * PKT_PS + 9 * r + 50_000_000 + CUT + 9 * L;
        assertEquals(956_790_480L, fct);
        SimResults res = runIb(longHaul(10_000), List.of(new FlowSpec("s0:nic0", "s1:nic0", 70L * PAYLOAD, 0, 3)),
                32 * 1024);
        long measured = res.flows().get(0).fctPs();
        assertTrue(measured >= fct && measured <= fct + 7 * FC_PS, "FCT " + measured);
        assertEquals(7 * 65 * 64, credit(res, "leaf0:eth0", 3).maxHeldBytes());
    }

    @Test
    void aShortLinkWithEnoughCreditsRunsAtLineRate() {
        // 500 m: R = 329,760 + 2,500,000 + 480 + 2,500,000 = 5,330,240 ps, while a window of 31
        // packets takes 31 * 329,760 = 10,222,560 ps to send: credits come back before they run out
        // (C / R = 131,072 * 8 / 5.33 us = 197 Gb/s > 100 Gb/s), so the link runs at line rate and
        // the flow finishes as with no flow control: the last of N packets starts at 339,760 +
        // (N - 1) * 329,760 and arrives 329,760 + 2,500,000 later. The wire also carries the
        // flow-control packets that return the credits of the ACKs coming back (one 6-byte
        // packet, 480 ps, per ACK, ahead of data): at most N * 480 ps more, 0.15 % of the FCT.
        // leaf0 cuts every packet through (none waits for credits, each leaves straight behind the
        // one before): CUT = -179,760 once.
        int packets = 310;
        long fct = 339_760 + packets * PKT_PS + 2_500_000 + CUT;
        assertEquals(104_885_600L, fct);
        SimResults res = runIb(longHaul(500), List.of(new FlowSpec("s0:nic0", "s1:nic0", (long) packets * PAYLOAD, 0, 3)),
                128 * 1024);
        long measured = res.flows().get(0).fctPs();
        assertTrue(measured >= fct && measured <= fct + packets * FC_PS, "FCT " + measured);
        assertEquals(0, credit(res, "leaf0:eth1", 3).creditStalledPs());
    }

    @Test
    void anEightToOneIncastLosesNothingHoldsNoBufferAboveItsCreditsAndKeepsTheReceiverBusy() {
        // s0..s7 each send 1 MiB to s8 through leaf0; every link 100G, 2 m.
        Fabric f = TestFabrics.star(9, 100, 2.0, QosProfile.roceLossless("lossless", 100));
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            flows.add(new FlowSpec("s" + i + ":nic0", "s8:nic0", 256L * PAYLOAD, 0, 3));
        }
        SimResults res = runIb(f, flows, 128 * 1024);
        assertEquals(SimResults.StopReason.COMPLETED, res.run().stopReason());
        // No drops of any cause, no retransmission, and nothing of RoCE's machinery: no PAUSE, no
        // ECN mark, no CNP.
        assertEquals(0, res.summary().drops());
        assertEquals(0, res.summary().retransmittedBytes());
        assertEquals(0, res.summary().pauseFramesSent());
        assertEquals(0, res.summary().ecnMarked());
        assertEquals(0, res.summary().cnpsSent());
        // No receive buffer above what it advertised (the simulator also stops if one ever is),
        // and the leaf's buffer for each sender did fill: 31 packets = 2015 of its 2048 blocks, so
        // credits, not luck, held the senders back.
        for (SimResults.CreditResult c : res.credits()) {
            assertTrue(c.maxHeldBytes() <= c.advertisedBytes(), c.toString());
        }
        for (int i = 0; i < 8; i++) {
            assertEquals(2015 * 64, credit(res, "leaf0:eth" + i, 3).maxHeldBytes());
            assertTrue(credit(res, "s" + i + ":nic0", 3).creditStalledPs() > 0);
        }
        // The receiver's link: 8 * 256 packets * 4122 B = 8,441,856 B of data = 675,348,480 ps at
        // 100G. The first packets reach leaf0 at 329,760 + 10,000 = 339,760 ps; the last one is
        // whole at s8 at the last finish, having left leaf0 10,000 ps (2 m) earlier. Busy share of
        // that window >= 99 % (the leaf always has a packet of some sender queued for s8).
        long dataPs = 8L * 256 * 4122 * 8 * 10;
        assertEquals(675_348_480L, dataPs);
        long lastFinish = res.flows().stream().mapToLong(SimResults.FlowResult::finishPs).max().orElseThrow();
        double busy = (double) dataPs / (lastFinish - 10_000 - 339_760);
        assertTrue(busy >= 0.99, "receiver link busy " + busy);
        assertTrue(busy <= 1.0, "receiver link busy " + busy);
    }

    @Test
    void settingsOutsideTheSpecificationAreRefused() {
        Fabric f = longHaul(2);
        List<FlowSpec> one = List.of(new FlowSpec("s0:nic0", "s1:nic0", 4096, 0, 3));
        Simulator ib = new Simulator(f, one, SimConfig.defaults(), QosResolver.of(f), Transport.INFINIBAND);
        // 2049 blocks: beyond the 2048 a sender may use (IBTA vol. 1 §7.9.4).
        assertThrows(IllegalArgumentException.class, () -> ib.setVlCreditBytes(2049 * 64));
        assertThrows(IllegalArgumentException.class, () -> ib.setVlCreditBytes(1000));
        Simulator roce = new Simulator(f, one, SimConfig.defaults());
        assertThrows(IllegalStateException.class, () -> roce.setVlCreditBytes(64 * 1024));
        assertEquals(List.of(), roce.run().credits());
        // Ultra Ethernet is simulated too, without credits (it runs over lossy Ethernet).
        Simulator uec = new Simulator(f, one, SimConfig.defaults(), QosResolver.of(f), Transport.ULTRA_ETHERNET);
        assertThrows(IllegalStateException.class, () -> uec.setVlCreditBytes(64 * 1024));
    }

    @Test
    void adaptiveRoutingRemovesTheEcmpCollisionOfTwoFlowsOnTwoPaths() {
        // Two leaves, two spines, two 100G servers a leaf, 100G uplinks; s0_i sends 4 MiB to s1_i.
        // Find a seed whose ECMP hash puts both flows on one uplink of leaf0 (probability 1/2 a seed).
        long seed = 1;
        SimResults ecmp = twoPaths(RoutingMode.ECMP, seed);
        while (leaf0Flows(ecmp) < 2) {
            ecmp = twoPaths(RoutingMode.ECMP, ++seed);
        }
        SimResults adaptive = twoPaths(RoutingMode.ADAPTIVE, seed);
        // Alone, a flow of 1024 packets of 4122 B runs at line rate: 1024 * 329,760 ps = 337.7 us.
        double aloneUs = 1024 * 329_760 / 1e6;
        // ECMP: both share one 100G uplink, 50 Gb/s each: the slower needs about twice that.
        assertTrue(ecmp.summary().fctMaxUs() > 1.9 * aloneUs, "ECMP fct " + ecmp.summary().fctMaxUs());
        // Adaptive: each packet takes the uplink whose queue holds fewer bytes, so the two flows
        // spread over both and each runs at line rate (plus a few us of latency and the
        // flow-control packets, 6 B per 4122 B).
        assertTrue(adaptive.summary().fctMaxUs() < 1.03 * aloneUs, "adaptive fct " + adaptive.summary().fctMaxUs());
        for (SimResults r : List.of(ecmp, adaptive)) {
            assertEquals(2, r.run().flowsCompleted());
            assertEquals(0, r.summary().drops());
            assertEquals(0, r.summary().retransmittedBytes());
        }
    }

    private static SimResults twoPaths(RoutingMode mode, long seed) {
        Fabric f = TestFabrics.leafSpine(2, 2, 2, 100, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        List<FlowSpec> flows = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 1024L * PAYLOAD, 0, 3),
                new FlowSpec("s0_1:nic0", "s1_1:nic0", 1024L * PAYLOAD, 0, 3));
        Simulator sim = new Simulator(f, flows, SimConfig.defaults().withSeed(seed), QosResolver.of(f), Transport.INFINIBAND);
        sim.setRoutingPolicy(RoutingPolicy.of(mode));
        return sim.run();
    }

    private static int leaf0Flows(SimResults r) {
        return r.uplinks().stream().filter(u -> u.device().equals("leaf0")).findFirst().orElseThrow()
                .flows().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    @Test
    void aLinkThatFailsAndComesBackKeepsItsCreditsConsistent() {
        // Two leaves, two spines, one server a leaf: an 8 MB flow, its uplink failed from 100 to
        // 200 us. Packets queued for the dead wire or on it are lost (and resent go-back-N); the
        // buffers they held at the upstream switch return credits; when the link comes back both
        // ends start again from the receiver's state (as a link's initialization does), so no
        // credit is lost or counted twice: the flow completes and every later packet finds room
        // (the simulator stops with an error if a buffer ever exceeds its credits).
        Fabric probe = TestFabrics.leafSpine(2, 2, 1, 100, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        List<FlowSpec> flow = List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", 8_000_000, 0, 3));
        String uplink = runIb(probe, flow, 128 * 1024).flows().get(0).path().get(1);

        Fabric f = TestFabrics.leafSpine(2, 2, 1, 100, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        Simulator sim = new Simulator(f, flow, SimConfig.defaults(), QosResolver.of(f), Transport.INFINIBAND);
        sim.setReconvergencePs(50_000_000);
        sim.scheduleFailure(new LinkFailure(f.findLink(uplink), 100_000_000, 200_000_000));
        SimResults r = sim.run();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertTrue(r.summary().linkDownDrops() > 0);
        assertTrue(r.flows().get(0).retransmittedBytes() > 0);
        for (SimResults.CreditResult c : r.credits()) {
            assertTrue(c.maxHeldBytes() <= c.advertisedBytes(), c.toString());
        }
    }

    /**
     * A wire keeps the time of a flow-control packet apart from the last frame size it sent (data
     * packets, ACKs and flow-control packets alternate on every InfiniBand link), and a new line
     * rate (a degraded link) gives the new time: 6 B = 48 bits at 100 Gb/s (10 ps a bit) = 480 ps;
     * at 25 Gb/s (40 ps a bit) 1,920 ps. A data packet, 4122 B: 329,760 ps at 100 Gb/s, 1,319,040
     * ps at 25 Gb/s.
     */
    @Test
    void flowControlPacketTimeIsKeptApartAndFollowsTheRate() {
        Fabric f = longHaul(2.0);
        Simulator sim = new Simulator(f, List.of(), SimConfig.defaults(), QosResolver.of(f), Transport.INFINIBAND);
        EgressPort p = sim.ports()[0];
        assertEquals(PKT_PS, p.serializationPs(4122));
        assertEquals(FC_PS, p.serializationPs(CreditFlowControl.FC_PACKET_BYTES));
        assertEquals(PKT_PS, p.serializationPs(4122));
        assertEquals(4122, p.lastWireBytes, "the flow-control packet does not replace the cached data size");
        // As LinkEvents.speed renegotiates a link to 25 Gb/s.
        p.rateBps = io.fabriclab.model.Units.gbpsToBps(25);
        p.lastWireBytes = -1;
        assertEquals(1_920, p.serializationPs(CreditFlowControl.FC_PACKET_BYTES));
        assertEquals(1_319_040, p.serializationPs(4122));
    }
}
