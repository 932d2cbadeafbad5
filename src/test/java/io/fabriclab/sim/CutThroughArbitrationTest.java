package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.FlowSpec;

/**
 * Egress arbitration at an Ethernet cut-through switch (docs/model.md, Switch port-to-port
 * latency): a packet whose head is in while the egress is idle and holds nothing claims the egress
 * then and leaves L after its head came in; a packet that arrives while the egress is taken is
 * stored, queued when its last bit is in, and sent after the one that claimed the egress, even
 * if its last bit came in first. Before, the switch ordered packets by their last bit, so a short
 * frame went ahead of a long one that a real cut-through switch was already sending.
 *
 * <p>leaf0 with s0, s1, s2, every link 100G and 2 m (10,000 ps), the Ethernet cut-through class
 * (L = 300,000 ps), RoCEv2 (62 B of headers a data frame, 20 B preamble and gap on the wire,
 * 80 ps a byte at 100G).
 */
class CutThroughArbitrationTest {
    private static final long PROP = 10_000;
    private static final long L = 300_000;

    @Test
    void aLongFrameWhoseHeadCameFirstLeavesBeforeAShortFrameWhoseTailCameFirst() {
        // Flow B, s0 -> s2 from 0: one packet of 4,138 B payload, a 4,200 B frame, 4,220 B on the
        // wire: 337,600 ps. Its head is at leaf0 at 10,000 and its tail at 347,600.
        // Flow C, s1 -> s2 from 100,000: one packet of 138 B payload, a 200 B frame, 220 B on the
        // wire: 17,600 ps. Its head is at leaf0 at 110,000 and its tail at 127,600: inside B's.
        long serB = 4_220L * 80;
        long serC = 220L * 80;
        assertEquals(337_600, serB);
        assertEquals(17_600, serC);
        // B's head finds leaf0's egress to s2 idle: it starts L after its head came in, at 310,000,
        // and its tail reaches s2 at 310,000 + 337,600 + 10,000 = 657,600.
        long bArrives = PROP + L + serB + PROP;
        assertEquals(657_600, bArrives);
        // C's head (110,000) finds the egress sending B: leaf0 stores C, queues it when its tail is
        // in (127,600) and sends it when B's tail has left (647,600): it reaches s2 at 647,600 +
        // 17,600 + 10,000 = 675,200, a flow completion time of 575,200.
        long cArrives = PROP + L + serB + serC + PROP;
        assertEquals(675_200, cArrives);
        // (Ordered by its tail, C left first, L - serC after its tail: 437,600 at s2; B, not to
        // overlap it on the wire, reached s2 at 437,600 + 337,600 = 775,200, 117,600 ps late.)
        Fabric f = TestFabrics.star(3, 100, 2.0, null);
        SimResults r = run(f, List.of(new FlowSpec("s0:nic0", "s2:nic0", 4_138, 0, 3),
                new FlowSpec("s1:nic0", "s2:nic0", 138, 100_000, 3)), null);
        assertEquals(bArrives, r.flows().get(0).finishPs());
        assertEquals(cArrives, r.flows().get(1).finishPs());
        assertEquals(575_200, r.flows().get(1).fctPs());
    }

    @Test
    void aDataFrameGoesAheadOfAnAckWhoseLastBitCameInDuringItsHead() {
        // The case of a ring between pods: a data frame into a host, and the ACK the host's own
        // transfer gets, meeting at the host's downlink.
        // Flow A, s2 -> s1 from 0: one packet of 938 B payload, a 1,000 B frame, 1,020 B on the
        // wire: 81,600 ps; it cuts through leaf0 (head in at 10,000, out at 310,000) and its tail is
        // at s1 at 310,000 + 81,600 + 10,000 = 401,600. s1 acknowledges at once: an ACK of 66 B,
        // 86 B on the wire, 6,880 ps; its head is at leaf0 at 411,600, its tail at 418,480.
        long serA = 1_020L * 80;
        long serAck = 86L * 80;
        long ackSent = PROP + L + serA + PROP;
        assertEquals(401_600, ackSent);
        // Flow B, s0 -> s2 from 300,000: one full packet (337,600 ps). Its head is at leaf0 at
        // 310,000, before the ACK's; its tail at 647,600, after the ACK's (418,480).
        long serB = 4_220L * 80;
        long bHead = 300_000 + PROP;
        assertEquals(310_000, bHead);
        // B claims the idle egress to s2 at its head: it starts on the wire at 610,000 and its tail
        // is at s2 at 610,000 + 337,600 + 10,000 = 957,600.
        long bArrives = bHead + L + serB + PROP;
        assertEquals(957_600, bArrives);
        // The ACK's head (411,600) finds the egress taken: stored, queued at its tail (418,480),
        // it leaves when B's tail has: at the simulator's egress time 647,600 (B's 310,000 +
        // 337,600), on the wire at 947,600, at s2 at 947,600 + 6,880 + 10,000 = 964,480.
        // (Ordered by its tail, the ACK left first and B reached s2 at 1,066,080, 108,480 late.)
        assertEquals(964_480, bArrives + serAck);
        Fabric f = TestFabrics.star(3, 100, 2.0, null);
        List<String> atLeafToS2 = new ArrayList<>();
        List<Long> when = new ArrayList<>();
        SimTrace trace = new SimTrace() {
            @Override
            public void transmitStart(long nowPs, String port, String kind, int priority, int flow, int psn) {
                if (port.equals(f.device("leaf0").port("eth2").ref())) {
                    atLeafToS2.add(kind + " of flow " + flow);
                    when.add(nowPs);
                }
            }
        };
        SimResults r = run(f, List.of(new FlowSpec("s2:nic0", "s1:nic0", 938, 0, 3),
                new FlowSpec("s0:nic0", "s2:nic0", 4_138, 300_000, 3)), trace);
        assertEquals(bArrives, r.flows().get(1).finishPs());
        // Toward s2: B's data, then flow A's ACK back to back behind it (the simulator's egress
        // times: the wire's less L).
        assertEquals(List.of("data of flow 1", "ack of flow 0"), atLeafToS2.subList(0, 2));
        assertEquals(List.of(bHead, bHead + serB), when.subList(0, 2));
    }

    @Test
    void headsAndTailsThatTieAtOneEgressTakeItInRoundRobinOrder() {
        // Flow 0 from s2 and flow 1 from s1, each two full packets (2 x 4,138 B payload, 4,220 B on
        // the wire: 337,600 ps) to s0, both from 0: the NICs send in lock-step, so both flows'
        // heads and tails reach leaf0 in the same picoseconds. The egress to s0 arbitrates each
        // such tie round robin over its ingress ports (port ids, cyclic from its pointer, which
        // starts at 0 and moves one past the port served first); leaf0:eth1 (s1's) has the lower
        // id, its link being made before eth2's.
        long ser = 4_220L * 80;
        // 10,000: both first packets' heads are in and the egress is idle: eth1 comes first from
        // the pointer, so flow 1's packet claims it (egress time 10,000, on the wire at 310,000, at
        // s0 at 310,000 + 337,600 + 10,000 = 657,600) and the pointer moves past eth1; flow 0's is
        // stored. (In event order flow 0's, scheduled first, won every tie.)
        // 347,600: flow 0's first packet's tail is in as the egress frees (10,000 + 337,600): it
        // goes at once, back to back. Both second packets' heads, in at 347,600 too, find it taken
        // and are stored.
        // 685,200: both second packets' tails are in as the egress frees: from the pointer (past
        // eth1) eth2 comes first, so flow 0's goes first now, then flow 1's at 1,022,800.
        long[] start = {PROP, PROP + ser, PROP + 2 * ser, PROP + 3 * ser};
        assertEquals(List.of(10_000L, 347_600L, 685_200L, 1_022_800L), List.of(start[0], start[1], start[2], start[3]));
        // Back to back on the wire from 310,000, each tail at s0 L + 337,600 + 10,000 after its
        // start: flow 0's second packet at 1,332,800, flow 1's at 1,670,400.
        long flow0Done = start[2] + L + ser + PROP;
        long flow1Done = start[3] + L + ser + PROP;
        assertEquals(1_332_800, flow0Done);
        assertEquals(1_670_400, flow1Done);
        Fabric f = TestFabrics.star(3, 100, 2.0, null);
        List<String> atLeafToS0 = new ArrayList<>();
        List<Long> when = new ArrayList<>();
        SimTrace trace = new SimTrace() {
            @Override
            public void transmitStart(long nowPs, String port, String kind, int priority, int flow, int psn) {
                if (port.equals(f.device("leaf0").port("eth0").ref()) && kind.equals("data")) {
                    atLeafToS0.add("flow " + flow + " packet " + psn);
                    when.add(nowPs);
                }
            }
        };
        SimResults r = run(f, List.of(new FlowSpec("s2:nic0", "s0:nic0", 2 * 4_138, 0, 3),
                new FlowSpec("s1:nic0", "s0:nic0", 2 * 4_138, 0, 3)), trace);
        assertEquals(List.of("flow 1 packet 0", "flow 0 packet 0", "flow 0 packet 1", "flow 1 packet 1"), atLeafToS0);
        assertEquals(List.of(start[0], start[1], start[2], start[3]), when);
        assertEquals(flow0Done, r.flows().get(0).finishPs());
        assertEquals(flow1Done, r.flows().get(1).finishPs());
    }

    private static SimResults run(Fabric f, List<FlowSpec> flows, SimTrace trace) {
        Simulator sim = new Simulator(f, flows, SimConfig.defaults(), QosResolver.of(f), Transport.ROCEV2);
        if (trace != null) {
            sim.setTrace(trace);
        }
        SimResults r = sim.run();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(0, r.summary().drops());
        return r;
    }
}
