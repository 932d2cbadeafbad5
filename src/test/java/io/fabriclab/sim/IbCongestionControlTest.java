package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.workload.FlowSpec;

/**
 * InfiniBand congestion control (docs/model.md, InfiniBand congestion control; docs/validation.md).
 * Every figure is derived by hand in the comments.
 *
 * <p>Common numbers (as InfinibandCreditTest): fabric MTU 4200 B, so the IB path MTU is 4096 B and
 * a full data packet is 4096 + 26 = 4122 B = 65 credits; at 100 Gb/s it takes T = 4122 * 8 * 10 =
 * 329,760 ps; 2 m cables propagate in 10,000 ps; the leaf is an InfiniBand switch of 150 ns
 * port-to-port latency L, cut-through: a packet that finds its egress free reaches the next hop
 * T + p1 + p2 + L after its first bit left the sender (its serialization once, both cables and L).
 */
class IbCongestionControlTest {

    private static final long T = 329_760;
    private static final long PROP = 10_000;
    private static final long L = 150_000;
    private static final int PAYLOAD = 4096;

    /** Each decision of the switches: the queue it saw and whether it marked FECN. */
    private record Decision(String port, long queueBytes, boolean marked) {
    }

    private static final class Recorder implements SimTrace {
        final List<Decision> decisions = new ArrayList<>();

        @Override
        public void fecnDecision(long nowPs, String port, int vl, long queueBytes, boolean marked) {
            decisions.add(new Decision(port, queueBytes, marked));
        }
    }

    private static Fabric star(int servers) {
        return TestFabrics.star(servers, 100, 2.0, QosProfile.roceLossless("lossless", 100));
    }

    private static SimResults run(Fabric f, List<FlowSpec> flows, IbCongestionSettings cc, SimTrace trace) {
        TransportProfileIb ib = TransportProfileIb.defaults();
        TransportProfile tp = TransportProfile.infiniband(cc == null ? ib : ib.withCongestionControl(cc));
        Simulator sim = new Simulator(f, flows, SimConfig.defaults(), QosResolver.of(f), tp);
        sim.setTrace(trace);
        return sim.run();
    }

    private static IbCongestionSettings withMin(IbCongestionSettings d, int cctiMin, List<Integer> cct) {
        return new IbCongestionSettings(d.threshold(), d.markingRate(), d.packetSizeCredits(), d.cctiIncrease(),
                d.cctiTimer(), cctiMin, cct);
    }

    @Test
    void aFlowHeldAtCctiEightSendsAtHalfItsLineRate() {
        // CCTI_Min = 8: the flow starts at CCTI 8 and no timer can take it lower. The default CCT's
        // entry 8 is shift 3, multiplier 8: delay = (T >> 3) * 8 = 41,220 * 8 = 329,760 ps after
        // each packet, so packets start T + delay = 659,520 ps apart: 4122 * 8 bit / 659.52 ns =
        // 50.0 Gb/s on the wire, 8 / (8 + 8) of the line. Nothing queues (the leaf's egress sends
        // each packet long before the next arrives): no FECN, no BECN, the CCTI stays at 8.
        IbCongestionSettings cc = withMin(IbCongestionSettings.defaults(), 8, IbCongestionSettings.defaults().cct());
        assertEquals(329_760, cc.delayPs(8, T));
        int n = 100;
        // The last packet starts at 99 * 659,520 = 65,292,480 and arrives T + 2 * PROP + L later:
        // FCT = 65,292,480 + 329,760 + 20,000 + 150,000 = 65,792,240 ps. A 6-byte flow-control
        // packet (480 ps) returning s1's ACK credits may be on the leaf's wire to s1 when the last
        // packet comes: at most 480 ps more.
        long fct = 99 * (T + 329_760) + T + 2 * PROP + L;
        assertEquals(65_792_240, fct);
        Recorder rec = new Recorder();
        SimResults r = run(star(2), List.of(new FlowSpec("s0:nic0", "s1:nic0", (long) n * PAYLOAD, 0, 3)), cc, rec);
        long measured = r.flows().get(0).fctPs();
        assertTrue(measured >= fct && measured <= fct + 480, "FCT " + measured);
        // Payload rate: 100 * 4096 * 8 bit / 65.79 us = 49.80 Gb/s (the wire rate 50.0 less the
        // headers 4096 / 4122, plus the last packet's tail).
        assertEquals(49.80, r.flows().get(0).throughputGbps(), 0.01);
        SimResults.IbCongestionResult res = r.ibCongestionControl();
        assertEquals(0, res.fecnMarked());
        assertEquals(0, res.becnsReceived());
        assertEquals(8, res.maxCcti());
        assertEquals(8, res.flows().get(0).finalCcti());
        assertTrue(rec.decisions.stream().noneMatch(Decision::marked));
    }

    @Test
    void aShiftedEntryScalesThePacketTime() {
        // A CCT of two entries, "0:0,1:3", CCTI_Min 1: delay = (T >> 1) * 3 = 164,880 * 3 =
        // 494,640 ps; packets start 329,760 + 494,640 = 824,400 ps apart: 4122 * 8 / 824.4 ns =
        // 40.0 Gb/s on the wire. FCT of 100 packets = 99 * 824,400 + T + 2 * PROP + L = 82,115,360.
        IbCongestionSettings cc = withMin(IbCongestionSettings.defaults(), 1, IbCongestionSettings.parseCct("0:0,1:3"));
        assertEquals(1, cc.cctiLimit());
        assertEquals(494_640, cc.delayPs(1, T));
        long fct = 99 * 824_400L + T + 2 * PROP + L;
        assertEquals(82_115_360, fct);
        SimResults r = run(star(2), List.of(new FlowSpec("s0:nic0", "s1:nic0", 100L * PAYLOAD, 0, 3)), cc, null);
        long measured = r.flows().get(0).fctPs();
        assertTrue(measured >= fct && measured <= fct + 480, "FCT " + measured);
        assertEquals(0, r.ibCongestionControl().fecnMarked());
    }

    @Test
    void anUncongestedFlowIsNeverMarkedAndFinishesAsWithout() {
        // One flow at line rate through the leaf: packets arrive T apart and the egress sends each
        // in T, so a packet finds at most one packet queued ahead of it (4122 B), under the default
        // threshold 15 = (16 - 15) / 16 of the 131,072 B VL buffer = 8,192 B: no mark, no BECN,
        // the CCTI stays at 0 and no delay is added: the same FCT as with congestion control off.
        assertEquals(8_192, IbCongestionSettings.defaults().thresholdBytes(131_072));
        List<FlowSpec> flow = List.of(new FlowSpec("s0:nic0", "s1:nic0", 1_000_000, 0, 3));
        Recorder rec = new Recorder();
        SimResults on = run(star(2), flow, IbCongestionSettings.defaults(), rec);
        SimResults off = run(star(2), flow, null, null);
        assertEquals(off.flows().get(0).fctPs(), on.flows().get(0).fctPs());
        assertEquals(0, on.ibCongestionControl().fecnMarked());
        assertEquals(0, on.ibCongestionControl().becnsReceived());
        assertEquals(0, on.ibCongestionControl().maxCcti());
        assertEquals(0, on.ibCongestionControl().cctiAboveZeroPs());
        assertTrue(!rec.decisions.isEmpty());
        assertTrue(rec.decisions.stream().allMatch(d -> !d.marked() && d.queueBytes() <= 4122), rec.decisions.toString());
        // Off, the results carry no congestion-control block at all (results files stay as they were).
        assertNull(off.ibCongestionControl());
    }

    @Test
    void anEightToOneIncastMarksAboveTheThresholdOnlyAndTheSendersBackOff() {
        // s1..s8 each send 2,000,000 B to s0 through leaf0 (100 Gb/s everywhere): 489 packets each
        // (488 full + 1,152 B), 488 * 4122 + 1,178 = 2,012,714 B on the wire per flow. The leaf's
        // egress to s0 is the bottleneck: 8 * 2,012,714 B at 100 Gb/s take 1,288.137 us, so no flow
        // can finish before that, with or without congestion control.
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            flows.add(new FlowSpec("s" + i + ":nic0", "s0:nic0", 2_000_000, 0, 3));
        }
        double drainUs = 8 * 2_012_714 * 8 / 100e3;
        assertEquals(1288.137, drainUs, 0.001);
        Recorder rec = new Recorder();
        SimResults off = run(star(9), flows, null, null);
        SimResults on = run(star(9), flows, IbCongestionSettings.defaults(), rec);
        for (SimResults r : List.of(off, on)) {
            assertEquals(8, r.run().flowsCompleted());
            assertEquals(0, r.summary().drops());
            assertTrue(r.summary().fctMaxUs() >= drainUs, "FCT max " + r.summary().fctMaxUs());
            // Credits cap the bottleneck's queue: every byte in it sits in one of the 8 ingress VL
            // buffers, each at most 2048 blocks of 64 B: 8 * 131,072 = 1,048,576 B.
            assertTrue(bottleneck(r).maxBytes() <= 8 * 131_072, "queue " + bottleneck(r).maxBytes());
        }

        // The switch decided for every data packet queued at a port: it marked FECN exactly when
        // more than the threshold, 8,192 B, was queued ahead (the leaf's port to s0 is the root of
        // the congestion: an HCA frees its credits on arrival, so it never waits for them, and the
        // default marking rate 0 marks every eligible packet); the first packets of the incast
        // found less and went unmarked.
        long threshold = on.ibCongestionControl().thresholdBytes();
        assertEquals(8_192, threshold);
        assertTrue(rec.decisions.stream().allMatch(d -> d.marked() == (d.queueBytes() > threshold)));
        assertTrue(rec.decisions.stream().anyMatch(d -> !d.marked() && d.queueBytes() <= threshold));
        SimResults.IbCongestionResult cc = on.ibCongestionControl();
        long marked = rec.decisions.stream().filter(Decision::marked).count();
        assertTrue(marked > 0);
        assertEquals(marked, cc.fecnMarked());
        assertEquals(List.of(new SimResults.FecnPortResult("leaf0:eth0", 3, marked)), cc.fecnByPort());
        // Each FECN the receiver got was answered by an ACK with BECN; the last may still be on
        // their way back when the run ends (it ends when the last data arrives).
        assertEquals(cc.fecnMarked(), cc.fecnReceived());
        assertEquals(cc.fecnReceived(), cc.becnsSent());
        assertTrue(cc.becnsReceived() <= cc.becnsSent() && cc.becnsReceived() >= cc.becnsSent() - 8);
        // Every sender's CCTI rose (CCTI_Increase 1 a BECN, at most CCTI_Limit 127).
        assertEquals(8, cc.flows().size());
        for (SimResults.IbCcFlowResult f : cc.flows()) {
            assertTrue(f.maxCcti() > 0 && f.maxCcti() <= 127 && f.becnsReceived() > 0, f.toString());
            assertTrue(f.cctiAboveZeroPs() > 0, f.toString());
        }

        // Without congestion control a sender always has a packet ready, so from its start to its
        // last packet's start its NIC is either sending (its own 489 packets: 2,012,714 B = 161.0 us,
        // plus 6-byte flow-control packets for the credits of the ACKs it receives, 489 * 480 ps =
        // 0.2 us) or credit-stalled. Its last packet is delivered at most a full bottleneck queue
        // (248 packets * T = 81.8 us) plus its own T, 2 * PROP and L after it starts: so it started no
        // earlier than FCT - 82.3 us, and each NIC was credit-stalled at least FCT - 82.3 - 161.2 us.
        double perNicUs = off.summary().fctMaxUs() - 82.3 - 161.2;
        assertTrue(perNicUs > 1000);
        double offStalledUs = nicStalledPs(off) / 1e6;
        // (each flow's FCT is within 2 us of the last's: the leaf serves the 8 ingress buffers in turn)
        assertTrue(off.summary().fctP50Us() > off.summary().fctMaxUs() - 2);
        assertTrue(offStalledUs >= 8 * (perNicUs - 2), "stalled " + offStalledUs + " us");
        // With it, the senders wait for their injection delay instead of for credits: less
        // credit-stalled time, and no larger a peak at the bottleneck.
        double onStalledUs = nicStalledPs(on) / 1e6;
        assertTrue(onStalledUs < offStalledUs, onStalledUs + " vs " + offStalledUs);
        assertTrue(bottleneck(on).maxBytes() <= bottleneck(off).maxBytes());
    }

    private static SimResults.QueueResult bottleneck(SimResults r) {
        return r.queues().stream().filter(q -> q.port().equals("leaf0:eth0") && q.trafficClass() == 3).findFirst()
                .orElseThrow();
    }

    private static long nicStalledPs(SimResults r) {
        return r.credits().stream().filter(c -> c.port().contains(":nic")).mapToLong(SimResults.CreditResult::creditStalledPs)
                .sum();
    }
}
