package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.TestFabrics;

import org.junit.jupiter.api.Test;

class HeadroomCalculatorTest {

    @Test
    void hundredGigOverHundredMetresByHand() {
        HeadroomCalculator.Requirement r = HeadroomCalculator.required(100, 100, 4200);
        // Frame in progress at each end: (4200 + 20) B * 8 = 33,760 bit times, twice = 67,520.
        // PFC frame: 672. Cable: 2 * 100 m * 5 ns/m = 1,000 ns = 100,000 bit times at 100G.
        // Interface delay, both ends: 2 * 122,880 = 245,760. Peer response: 394 quanta * 512 = 201,728.
        // Total 67,520 + 672 + 100,000 + 245,760 + 201,728 = 615,680 bit times = 76,960 B.
        assertEquals(4220, r.receiverFrameBytes());
        assertEquals(84, r.pfcFrameBytes());
        assertEquals(12_500, r.cableBytes());
        assertEquals(30_720, r.interfaceBytes());
        assertEquals(25_216, r.peerResponseBytes());
        assertEquals(76_960, r.totalBytes());
        assertFalse(r.extrapolated());
    }

    /**
     * Validation case (docs/validation.md, headroom): 400G, 100 m, MTU 9,216 B. The 100G PHY's interface
     * delay (122,880 bit times = 1.23 us) must not be carried to 400G at constant time (that gave 491,520
     * bit times per end and 249,356 B in all); 400G uses the cited per-ASIC figure.
     */
    @Test
    void fourHundredGigOverHundredMetresWithJumboFramesByHand() {
        HeadroomCalculator.Requirement r = HeadroomCalculator.required(400, 100, 9216);
        // Frame the receiver is sending: (9,216 + 20) B * 8 = 73,888 bit times; the sender's frame the same.
        // PFC frame: (64 + 20) B * 8 = 672.
        // Cable: 2 * 100 m * 5 ns/m = 1,000 ns = 400,000 bit times at 400G.
        // Interface, both ends: SONiC's Spectrum mac_phy_delay 0.8 KiB = 819.2 B = 6,553.6 -> 6,554 bit
        //   times per end; 2 * 6,554 = 13,108.
        // Peer response: 905 quanta (IEEE 802.3 31B.3.7 at 400G) * 512 = 463,360.
        // The IEEE terms without the interface: 73,888 + 672 + 400,000 + 463,360 + 73,888 = 1,011,808 bit
        //   times = 126,476 B; with it 1,024,916 bit times = 128,114.5 -> 128,115 B.
        assertEquals(9_236, r.receiverFrameBytes());
        assertEquals(84, r.pfcFrameBytes());
        assertEquals(50_000, r.cableBytes());
        assertEquals(1_639, r.interfaceBytes()); // 13,108 / 8 = 1,638.5, rounded up
        assertEquals(57_920, r.peerResponseBytes());
        assertEquals(9_236, r.senderFrameBytes());
        assertEquals(128_115, r.totalBytes());
        assertFalse(r.extrapolated());
        assertEquals(HeadroomCalculator.SOURCE_SONIC_SPECTRUM, r.interfaceSource());
        // Second reference, SONiC's buffer_headroom_mellanox.lua before its cell-occupancy factor:
        // lossless MTU 9,216 + port MTU 9,216 + cable 2 * 100 * 400,000 * 1e9 / 198,000,000 / 8,192 = 49,321.3
        // + mac_phy_delay 819.2 + 905 * 64 = 57,920 -> 126,493 B. Ours is 1,622 B (1.3 %) above it: the
        // second end's interface delay (819 B), the PFC frame (84 B), preamble and gap of both frames
        // (40 B) and 5 ns/m against SONiC's 1.98e8 m/s (679 B).
        double sonic = 9_216 + 9_216 + 2 * 100 * 400_000 * 1e9 / 198_000_000 / 8_192 + 819.2 + 905 * 64;
        assertEquals(126_493, Math.round(sonic));
        assertTrue(Math.abs(r.totalBytes() - sonic) / sonic < 0.015);
    }

    @Test
    void interfaceDelayIsPerSpeedNotTheHundredGigFigureScaled() {
        assertEquals(122_880, HeadroomCalculator.timing(100).interfaceDelayBits());
        for (int g : new int[] {50, 200, 400, 800}) {
            assertEquals(HeadroomCalculator.SONIC_SPECTRUM_MAC_PHY_DELAY_BITS, HeadroomCalculator.timing(g).interfaceDelayBits());
        }
        assertFalse(HeadroomCalculator.timing(400).extrapolated());
        assertTrue(HeadroomCalculator.timing(800).extrapolated());
        assertTrue(HeadroomCalculator.required(800, 10, 9216).interfaceSource().contains("extrapolated"));
        // A speed between entries takes the next higher entry and says so.
        assertTrue(HeadroomCalculator.timing(300).extrapolated());
        assertEquals(905, HeadroomCalculator.timing(300).responseQuanta());
        // Response time in time: 394 quanta * 512 bit times at 100G = 201,728 * 10 ps = 2,017,280 ps.
        assertEquals(2_017_280, HeadroomCalculator.timing(100).responsePs());
    }

    @Test
    void longerCableNeedsTenBitTimesPerMetrePerGigabit() {
        // Each extra metre adds 2 * 5 ns = 10 ns, i.e. 10 * 400 = 4,000 bit times = 500 B at 400G.
        long a = HeadroomCalculator.required(400, 10, 4200).totalBytes();
        long b = HeadroomCalculator.required(400, 11, 4200).totalBytes();
        assertEquals(500, b - a);
    }

    @Test
    void flagsPortsWhoseProfileReservesLessThanNeeded() {
        Fabric f = new Fabric("t");
        // 100 KB of headroom: enough for 100G over 100 m (76,960 B), short for 400G over 100 m.
        QosProfile q = QosProfile.roceLossless("rdma", 400);
        f.putQosProfile(q.withPfc(q.pfc().withThresholds(1_000_000, 800_000, 100_000)));
        Device a = f.addDevice("leaf", DeviceRole.LEAF);
        Device b = f.addDevice("spine", DeviceRole.SPINE);
        TestFabrics.connect(f, a, b, 100, 100);
        TestFabrics.connect(f, a, b, 400, 100);
        var all = HeadroomCalculator.check(f);
        assertEquals(4, all.size());
        var shortPorts = HeadroomCalculator.shortfalls(f);
        assertEquals(2, shortPorts.size());
        shortPorts.forEach(h -> assertEquals(400, h.required().speedGbps()));
        assertEquals(shortPorts.get(0).required().totalBytes() - 100_000, shortPorts.get(0).missingBytes());
    }

    @Test
    void portsWithoutLosslessPriorityAreNotChecked() {
        Fabric f = new Fabric("t");
        f.putQosProfile(QosProfile.bestEffort("be"));
        Device a = f.addDevice("leaf", DeviceRole.LEAF);
        Device b = f.addDevice("spine", DeviceRole.SPINE);
        TestFabrics.connect(f, a, b, 400, 100);
        assertNull(HeadroomCalculator.forPort(f, a.port("eth1")));
        assertTrue(HeadroomCalculator.check(f).isEmpty());
    }
}
