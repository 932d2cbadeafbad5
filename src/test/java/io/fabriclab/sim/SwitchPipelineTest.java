package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.model.SwitchLatency;
import io.fabriclab.workload.FlowSpec;

/**
 * Per-switch port-to-port latency in the simulator (docs/model.md, Switch port-to-port latency):
 * one packet across leaf-spine-leaf pays serialization, propagation and three switch latencies,
 * cut-through or store-and-forward as the switch's model says.
 */
class SwitchPipelineTest {
    /** 2 m of fibre at 5 ns/m. */
    private static final long PROP = 10_000;
    /** Three switches on the path leaf0 - spine0 - leaf1. */
    private static final int SWITCHES = 3;

    /** s0_0 -(100G)- leaf0 -(100G)- spine0 -(100G)- leaf1 -(100G)- s1_0, 2 m cables. */
    private static Fabric uniform100g() {
        return TestFabrics.leafSpine(2, 1, 1, 100, 100, 2.0, QosProfile.roceLossless("lossless", 100));
    }

    private static SimResults.FlowResult run(Fabric f, Transport t, long bytes, Long latencyPs) {
        Simulator sim = new Simulator(f, List.of(new FlowSpec("s0_0:nic0", "s1_0:nic0", bytes, 0, 3)),
                SimConfig.defaults(), QosResolver.of(f), t);
        if (latencyPs != null) {
            sim.setSwitchLatencyPs(latencyPs);
        }
        SimResults r = sim.run();
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertEquals(0, r.summary().drops());
        return r.flows().get(0);
    }

    @Test
    void theCitedFiguresAreWhatTheSimulatorReads() {
        // docs/model.md table: InfiniBand 150 ns, Ethernet cut-through 300 ns (the SN2700 brief; 600 ns
        // before issue #29), deep buffer 3.5 us.
        assertEquals(150_000, SwitchLatency.SwitchClass.INFINIBAND.portToPortPs());
        assertEquals(300_000, SwitchLatency.SwitchClass.ETHERNET_CUT_THROUGH.portToPortPs());
        assertEquals(3_500_000, SwitchLatency.SwitchClass.ETHERNET_DEEP_BUFFER.portToPortPs());
    }

    @Test
    void oneRocePacketAcrossCutThroughLeafSpineLeafPaysOneSerializationFourPropagationsAndThreeLatencies() {
        // One full packet: 4200 B frame + 20 B preamble/IFG = 4220 B = 33,760 bit, 337,600 ps at 100G.
        long ser = 33_760L * 10;
        long l = 300_000; // Ethernet cut-through (Spectrum/Tomahawk class, the SN2700 brief's 300 ns)
        // Cut-through at every switch with equal speeds: the head goes through each switch after L,
        // the tail follows one serialization behind it.
        long expected = ser + 4 * PROP + SWITCHES * l;
        assertEquals(1_277_600, expected); // 337,600 + 40,000 + 900,000
        assertEquals(expected, run(uniform100g(), Transport.ROCEV2, 4138, null).fctPs());
    }

    @Test
    void oneInfinibandPacketAcrossQuantumClassSwitches() {
        // 4096 B payload + LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 4122 B, no gap: 32,976 bit = 329,760 ps at 100G.
        long ser = 4122L * 8 * 10;
        long l = 150_000; // Quantum class
        long expected = ser + 4 * PROP + SWITCHES * l;
        assertEquals(819_760, expected); // 329,760 + 40,000 + 450,000
        assertEquals(expected, run(uniform100g(), Transport.INFINIBAND, 4096, null).fctPs());
    }

    @Test
    void oneUltraEthernetPacketAcrossCutThroughEthernetSwitches() {
        // Payload 4200 - 102 B of headers = 4098 B; the frame on the wire is again 4220 B: 337,600 ps.
        long expected = 337_600 + 4 * PROP + SWITCHES * 300_000;
        assertEquals(1_277_600, expected);
        assertEquals(expected, run(uniform100g(), Transport.ULTRA_ETHERNET, 4098, null).fctPs());
    }

    @Test
    void aDeepBufferSwitchStoresAndForwards() {
        Fabric f = uniform100g();
        for (Device d : f.switches()) {
            d.setModel("Arista 7280R3");
        }
        // Store-and-forward: the packet is serialized on each of the 4 links, and each of the 3
        // switches adds 3.5 us: 4 x 337,600 + 4 x 10,000 + 3 x 3,500,000.
        long expected = 4 * 337_600 + 4 * PROP + SWITCHES * 3_500_000;
        assertEquals(11_890_400, expected);
        assertEquals(expected, run(f, Transport.ROCEV2, 4138, null).fctPs());
    }

    @Test
    void packetsBehindTheFirstFollowOneSerializationApart() {
        // Four packets back to back: the first as above, each further one a 100G serialization later
        // (the wire carries one packet at a time): 1,277,600 + 3 x 337,600.
        long expected = 337_600 + 4 * PROP + SWITCHES * 300_000 + 3 * 337_600;
        assertEquals(2_290_400, expected);
        assertEquals(expected, run(uniform100g(), Transport.ROCEV2, 4 * 4138, null).fctPs());
    }

    @Test
    void aSlowerLastHopCutsThroughOnceTheHeadArrives() {
        // s0_0 -(100G)- leaf0 -(400G)- spine0 -(400G)- leaf1 -(100G)- s1_0. Serialization of the 4220 B
        // frame: 337,600 ps at 100G, 84,400 ps at 400G. leaf0 (100G in, 400G out) must not let the
        // faster egress underrun: the tail leaves L = 300 ns after it came in, at 337,600 + 10,000 +
        // 300,000 = 647,600, and arrives at spine0 at 657,600. spine0 (400G both ways) sends the tail
        // L after it arrived, less one 400G serialization: 657,600 + 300,000 - 84,400 + 84,400 +
        // 10,000 = 967,600 at leaf1. leaf1 (400G in, 100G out) starts when the head is in,
        // 84,400 before the tail, and needs a 100G serialization: 967,600 - 84,400 + 300,000 +
        // 337,600 + 10,000 = 1,530,800.
        Fabric f = TestFabrics.leafSpine(2, 1, 1, 100, 400, 2.0, QosProfile.roceLossless("lossless", 100));
        assertEquals(1_530_800, run(f, Transport.ROCEV2, 4138, null).fctPs());
    }

    @Test
    void latencyZeroIsThePlainStoreAndForwardSwitch() {
        // setSwitchLatencyPs(0) (scenario "switchLatencyNs": 0): 4 serializations + 4 propagations.
        long expected = 4 * 337_600 + 4 * PROP;
        assertEquals(1_390_400, expected);
        assertEquals(expected, run(uniform100g(), Transport.ROCEV2, 4138, 0L).fctPs());
    }

    @Test
    void aSetLatencyReplacesEveryModelsFigure() {
        // 1 us at every (cut-through) switch: 337,600 + 40,000 + 3 x 1,000,000.
        assertEquals(3_377_600, run(uniform100g(), Transport.ROCEV2, 4138, 1_000_000L).fctPs());
    }

    @Test
    void aSwitchModelWithItsOwnPublishedLatencyRunsAtIt() {
        // One InfiniBand switch between two HCAs: a QM8700 (product brief: 130 ns) instead of the
        // InfiniBand class's 150 ns delivers the same flow 20 ns sooner, every other term equal.
        long[] ends = new long[2];
        for (int i = 0; i < 2; i++) {
            io.fabriclab.model.Fabric f = TestFabrics.star(2, 100, 1.0, null);
            if (i == 1) {
                f.device("leaf0").setModel("NVIDIA Quantum QM8700");
            }
            SimResults r = new Simulator(f, java.util.List.of(new io.fabriclab.workload.FlowSpec("s0:nic0", "s1:nic0",
                    100_000, 0, 3)), SimConfig.defaults(), QosResolver.of(f), io.fabriclab.model.Transport.INFINIBAND).run();
            ends[i] = r.flows().get(0).finishPs();
        }
        org.junit.jupiter.api.Assertions.assertEquals(20_000, ends[0] - ends[1]);
    }
}
