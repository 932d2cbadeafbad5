package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;

/**
 * Issue 30's structure: each transport is its own implementation of {@link NicTransport}, chosen
 * once for the run (RoCEv2 no longer serves InfiniBand), with the framing of its transport, and
 * every one of them is driven by the one shared {@link NicScheduler}: the same incast completes
 * under each with the figures the transport's own tests derive.
 */
class NicTransportTest {

    private static Simulator run(Transport t) {
        Fabric f = TestFabrics.star(5, 100, 1.0, null);
        return new Simulator(f, IncastTest.incast(4, 64L * 4096), SimConfig.defaults(), QosResolver.of(f),
                TransportProfile.of(t));
    }

    @Test
    void eachTransportHasItsOwnImplementation() {
        assertInstanceOf(RoceTransport.class, run(Transport.ROCEV2).nicTransport);
        assertInstanceOf(IbTransport.class, run(Transport.INFINIBAND).nicTransport);
        assertInstanceOf(UecTransport.class, run(Transport.ULTRA_ETHERNET).nicTransport);
    }

    @Test
    void framingFollowsTheTransport() {
        // RoCEv2: Ethernet + IPv4 + UDP + BTH + ICRC + FCS around the payload, 20 B of preamble and
        // gap on the wire; InfiniBand: LRH + BTH + CRCs, 4096 B of payload at most (IBTA MTU), no
        // wire overhead counted; Ultra Ethernet over Ethernet: its own headers, Ethernet's gap.
        NicTransport.Framing roce = NicTransport.Framing.of(Transport.ROCEV2, 4200);
        assertEquals(RoceFraming.DATA_HEADER_BYTES, roce.dataHeaderBytes());
        assertEquals(RoceFraming.WIRE_OVERHEAD_BYTES, roce.wireOverheadBytes());
        assertEquals(RoceFraming.maxPayload(4200), roce.maxPayload());
        NicTransport.Framing ib = NicTransport.Framing.of(Transport.INFINIBAND, 9000);
        assertEquals(4096, ib.maxPayload());
        assertEquals(CreditFlowControl.WIRE_OVERHEAD_BYTES, ib.wireOverheadBytes());
        assertEquals(CreditFlowControl.ACK_PACKET_BYTES, ib.ackBytes());
        NicTransport.Framing uec = NicTransport.Framing.of(Transport.ULTRA_ETHERNET, 4200);
        assertEquals(UecFraming.DATA_HEADER_BYTES, uec.dataHeaderBytes());
        assertEquals(RoceFraming.WIRE_OVERHEAD_BYTES, uec.wireOverheadBytes());
        // Only Ultra Ethernet's packets carry an entropy value the switches spray on.
        assertEquals(0, run(Transport.ROCEV2).nicTransport.pathEntropies());
        assertEquals(0, run(Transport.INFINIBAND).nicTransport.pathEntropies());
        assertEquals(TransportProfileUec.defaults().pathEntropies(), run(Transport.ULTRA_ETHERNET).nicTransport.pathEntropies());
    }

    @Test
    void theSharedSchedulerDrivesEveryTransportToCompletion() {
        // 4 x 64 packets of payload into one 100G NIC: whatever the transport, the receiver's link
        // carries every payload byte once at least, so the last flow ends no sooner than
        // 4 x 64 x 4096 B at 100 Gb/s = 83.9 us.
        for (Transport t : new Transport[] {Transport.ROCEV2, Transport.INFINIBAND, Transport.ULTRA_ETHERNET}) {
            SimResults r = run(t).run();
            assertEquals(4, r.run().flowsCompleted(), t.jsonName());
            org.junit.jupiter.api.Assertions.assertTrue(r.run().simulatedPs() >= 4L * 64 * 4096 * 8 * 10,
                    t.jsonName() + " " + r.run().simulatedPs());
        }
    }
}
