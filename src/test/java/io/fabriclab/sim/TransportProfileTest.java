package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.workload.Collective;

/** The static per-transport framing and payload efficiency (docs/model.md, Transports), derived by hand. */
class TransportProfileTest {

    private static final int PAYLOAD = 4096;

    @Test
    void infiniBandFramingIsLrhBthIcrcVcrcAndTheGrhOnlyAcrossSubnets() {
        // LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 B; an RC ACK adds the 4-byte AETH = 30 B.
        assertEquals(26, IbFraming.DATA_HEADER_BYTES);
        assertEquals(30, IbFraming.ACK_PACKET_BYTES);
        assertEquals(4096 + 26, IbFraming.packetBytes(4096, false));
        assertEquals(4096 + 26 + 40, IbFraming.packetBytes(4096, true));
        assertThrows(IllegalArgumentException.class, () -> IbFraming.packetBytes(4097, false));
        // Credits: 4122 B / 64 = 64.4 -> 65 blocks (a partial block costs a whole one).
        assertEquals(65, IbFraming.credits(4122));
        assertEquals(1, IbFraming.credits(1));
        assertTrue(IbFraming.isMtu(4096));
        assertFalse(IbFraming.isMtu(8192));
        assertFalse(IbFraming.isMtu(4000));
        // The default VL buffer: 2048 blocks of 64 B = 128 KiB, inside the 12-bit credit window.
        TransportProfileIb ib = TransportProfileIb.defaults();
        assertEquals(2048, ib.vlCredits());
        assertEquals(131_072, ib.vlBufferBytes());
        assertThrows(IllegalArgumentException.class, () -> ib.withMtuBytes(8192));
    }

    @Test
    void ultraEthernetFramingIsEthernetIpUdpPdsSesFcs() {
        // Ethernet 14 + IPv4 20 + UDP 8 + PDS 12 + SES 44 + FCS 4 = 102 B; a coalesced ACK 14+20+8 +
        // PDS ACK_CC 32 (ACK 12 + CC type/flags 1 + MPR 1 + SACK offset 2 + SACK bitmap 8 + NSCC
        // state 8) + SES response 12 + 4 = 90 B; NACK 14+20+8 + PDS NACK 16 + 4 = 62 B (no SES header).
        assertEquals(102, UecFraming.DATA_HEADER_BYTES);
        assertEquals(90, UecFraming.ACK_FRAME_BYTES);
        assertEquals(62, UecFraming.NACK_FRAME_BYTES);
        assertEquals(102, UecFraming.TRIMMED_FRAME_BYTES);
        assertEquals(4096, UecFraming.maxPayload(4096 + 102));
    }

    @Test
    void payloadEfficiencyOfEachTransportAt4096BytesDerivedByHand() {
        TransportProfile roce = TransportProfile.of(Transport.ROCEV2);
        TransportProfile ib = TransportProfile.of(Transport.INFINIBAND);
        TransportProfile uec = TransportProfile.of(Transport.ULTRA_ETHERNET);
        // A direction carrying data only:
        // RoCEv2: 4096 / (4096 + 62 headers + 20 preamble/SFD/IFG) = 4096 / 4178 = 0.980373...
        assertEquals(4096.0 / 4178, roce.payloadEfficiency(PAYLOAD), 1e-12);
        // InfiniBand: 4096 / (4096 + 26) = 4096 / 4122 = 0.993692... (no preamble or gap at the data rate)
        assertEquals(4096.0 / 4122, ib.payloadEfficiency(PAYLOAD), 1e-12);
        // Ultra Ethernet: 4096 / (4096 + 102 + 20) = 4096 / 4218 = 0.971076...
        assertEquals(4096.0 / 4218, uec.payloadEfficiency(PAYLOAD), 1e-12);

        // A ring direction: one data stream plus the ACKs (one per packet) of the opposite stream, and
        // for InfiniBand one 6-byte flow-control packet per data packet freed at the receiver.
        // RoCEv2: 4096 / (4178 + 66 + 20) = 4096 / 4264 = 0.960600...
        assertEquals(4096.0 / 4264, roce.payloadEfficiency(PAYLOAD, 1), 1e-12);
        // InfiniBand: 4096 / (4122 + 30 + 6) = 4096 / 4158 = 0.985089...
        assertEquals(4096.0 / 4158, ib.payloadEfficiency(PAYLOAD, 1), 1e-12);
        // Ultra Ethernet with an ACK per packet: 4096 / (4218 + 90 + 20) = 4096 / 4328 = 0.946395...
        assertEquals(4096.0 / 4328, uec.payloadEfficiency(PAYLOAD, 1), 1e-12);
        // ... but its receiver coalesces: one ACK once more than 16,384 B of frames arrived, every
        // 4th packet of 4198 B (3 x 4198 = 12,594, 4 x 4198 = 16,792): 4096 / (4218 + 110 / 4)
        // = 4096 / 4245.5 = 0.964786... (one ACK of 70 B per packet was 0.950789: 1.4 % more payload).
        assertEquals(4, uec.packetsPerAck(PAYLOAD));
        assertEquals(1, roce.packetsPerAck(PAYLOAD));
        assertEquals(4096.0 / 4245.5, uec.ringPayloadEfficiency(PAYLOAD), 1e-12);
        assertEquals(4096.0 / 4264, roce.ringPayloadEfficiency(PAYLOAD), 1e-12);
        // ACK every 4 packets: RoCEv2 4096 / (4178 + 86/4) = 4096 / 4199.5
        assertEquals(4096.0 / 4199.5, roce.payloadEfficiency(PAYLOAD, 4), 1e-12);
    }

    /**
     * The must-show of issue 19: an 8-rank ring all-reduce on one switch at 400G, 4096 B payload.
     * Its busbw is the link's data rate times the ring direction's payload efficiency (less the
     * per-step latency, the same for both), so the ratio RoCEv2 / InfiniBand is the ratio of the
     * efficiencies: (4096 / 4264) / (4096 / 4158) = 4158 / 4264 = 0.975141 (RoCEv2 at 97.5 % of
     * InfiniBand's busbw). The physical layer cancels: 400GBASE-R and NDR 4x both signal 425 Gb/s
     * for a 400 Gb/s data rate (64b/66b, 256b/257b, RS(544,514)).
     */
    @Test
    void ringAllReduceAt400GBusbwRatioRoceOverInfiniBandIsTheRatioOfPayloadEfficiencies() {
        double roce = TransportProfile.of(Transport.ROCEV2).payloadEfficiency(PAYLOAD, 1);
        double ib = TransportProfile.of(Transport.INFINIBAND).payloadEfficiency(PAYLOAD, 1);
        assertEquals(4158.0 / 4264, roce / ib, 1e-12);
        assertEquals(0.975141, roce / ib, 1e-6);
        // busbw bounds at 400 Gb/s = 50 GB/s: RoCEv2 50 x 0.960600 = 48.030 GB/s; IB 50 x 0.985089 = 49.254 GB/s.
        assertEquals(48.030, 50 * roce, 1e-3);
        assertEquals(49.254, 50 * ib, 1e-3);
        // Data only (no reverse traffic): 4122 / 4178 = 0.986596.
        assertEquals(4122.0 / 4178, TransportProfile.of(Transport.ROCEV2).payloadEfficiency(PAYLOAD)
                / TransportProfile.of(Transport.INFINIBAND).payloadEfficiency(PAYLOAD), 1e-12);

        TransportProfilePhy eth = TransportProfilePhy.of(Transport.ROCEV2, 400).orElseThrow();
        TransportProfilePhy ndr = TransportProfilePhy.of(Transport.INFINIBAND, 400).orElseThrow();
        // 8 lanes x 53.125 Gb/s = 425; 4 lanes x 106.25 Gb/s = 425; 425 / 400 = 1.0625 = 544/514 x 257/256 x 66/64 ... 
        // (64b/66b 1.03125, transcoded to 256b/257b: x 257/264, FEC x 544/514: 1.03125 x 0.973485 x 1.058366 = 1.0625).
        assertEquals(1.0625, eth.overheadFactor(), 1e-12);
        assertEquals(1.0625, 66.0 / 64 * 257.0 / 264 * 544.0 / 514, 1e-12);
        assertEquals(eth.overheadFactor(), ndr.overheadFactor(), 1e-12);
    }

    /**
     * The RoCEv2 half of the must-show against the simulator (the InfiniBand half follows when the
     * simulator runs InfiniBand): 8 ranks on one 400G switch, frame MTU 4096 + 62 = 4158 B so every
     * full packet carries 4096 B, S = 64 MiB. The static bound is 50 GB/s x 4096/4264 = 48.03 GB/s;
     * the simulated busbw sits below it only by the 14 steps' start-up latency (each step waits for
     * its neighbours: a few hundred ns of serialization and propagation against 8 MiB / 50 GB/s =
     * 168 us per step), so within 1 %.
     */
    @Test
    void simulatedRoceRingBusbwAgreesWithTheStaticEfficiency() {
        int n = 8;
        Fabric f = TestFabrics.star(n, 400, 1.0, IncastTest.pfcOnly(400_000, 300_000, 200_000));
        f.setMtuBytes(PAYLOAD + RoceFraming.DATA_HEADER_BYTES);
        assertEquals(PAYLOAD, RoceFraming.maxPayload(f.mtuBytes()));
        List<String> ranks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ranks.add("s" + i + ":nic0");
        }
        Collective ar = Collective.allReduce("ar", ranks, 64L << 20, 0, 3);
        SimResults.CollectiveResult c = new Simulator(f, ar.flows(f), SimConfig.defaults()).run().collectives().get(0);
        double bound = 50 * TransportProfile.of(Transport.ROCEV2).payloadEfficiency(PAYLOAD, 1);
        System.out.printf("RoCEv2 8-rank ring at 400G: busbw %.3f GB/s, static bound %.3f GB/s (%.2f %%)%n",
                c.busbwGBps(), bound, 100 * c.busbwGBps() / bound);
        assertTrue(c.busbwGBps() <= bound * 1.0001, "busbw " + c.busbwGBps() + " above the bound " + bound);
        assertTrue(c.busbwGBps() >= bound * 0.99, "busbw " + c.busbwGBps() + " more than 1 % below " + bound);
    }

    @Test
    void theCreditLoopCarriesAtMostCreditOverRoundTrip() {
        // 128 KiB of credit, 5 us round trip: 131072 x 8 / 5e-6 = 209.7 Gb/s < 400 Gb/s line rate.
        assertEquals(131_072 * 8 / 5e-6, TransportProfileIb.creditLimitedBps(131_072, 5_000_000, 400_000_000_000L), 1);
        // 2 us round trip: 524 Gb/s of credit, so line rate.
        assertEquals(400e9, TransportProfileIb.creditLimitedBps(131_072, 2_000_000, 400_000_000_000L), 1);
    }

    @Test
    void thisBuildSimulatesAllThreeTransports() {
        assertTrue(TransportProfile.simulated(Transport.ROCEV2));
        assertTrue(TransportProfile.simulated(Transport.INFINIBAND));
        assertTrue(TransportProfile.simulated(Transport.ULTRA_ETHERNET));
        assertEquals("rocev2, infiniband, ultra-ethernet", TransportProfile.simulatedNames());
    }

    /**
     * The must-show against the simulator: the same 8-rank ring at 400G, 4096 B payload, under
     * RoCEv2 and InfiniBand. Each busbw sits within 1 % below its static bound (48.03 and 49.25 GB/s:
     * the steps' start-up latency), and the ratio of the two within 0.5 % of 4158 / 4264 = 0.97514.
     */
    @Test
    void simulatedRingBusbwRatioRoceOverInfiniBandIsTheRatioOfPayloadEfficiencies() {
        double[] busbw = new double[2];
        int i = 0;
        for (Transport t : List.of(Transport.ROCEV2, Transport.INFINIBAND)) {
            Fabric f = TestFabrics.star(8, 400, 1.0, IncastTest.pfcOnly(400_000, 300_000, 200_000));
            // RoCEv2 frames of 4096 + 62 B carry 4096 B; InfiniBand sends the largest IB MTU not above it, 4096.
            f.setMtuBytes(PAYLOAD + RoceFraming.DATA_HEADER_BYTES);
            List<String> ranks = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                ranks.add("s" + k + ":nic0");
            }
            Collective ar = Collective.allReduce("ar", ranks, 64L << 20, 0, 3);
            busbw[i] = new Simulator(f, ar.flows(f), SimConfig.defaults(), QosResolver.of(f), t).run()
                    .collectives().get(0).busbwGBps();
            double bound = 50 * TransportProfile.of(t).payloadEfficiency(PAYLOAD, 1);
            System.out.printf("%s: busbw %.4f GB/s, static bound %.4f (%.2f %%)%n", t, busbw[i], bound, 100 * busbw[i] / bound);
            assertTrue(busbw[i] <= bound * 1.0001 && busbw[i] >= bound * 0.99, t + " busbw " + busbw[i] + " vs " + bound);
            i++;
        }
        System.out.printf("ratio RoCEv2 / InfiniBand %.6f, static %.6f%n", busbw[0] / busbw[1], 4158.0 / 4264);
        assertEquals(4158.0 / 4264, busbw[0] / busbw[1], 0.005 * 4158.0 / 4264);
    }
}
