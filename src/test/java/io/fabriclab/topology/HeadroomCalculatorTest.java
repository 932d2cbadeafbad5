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

    @Test
    void longerCableNeedsTenBitTimesPerMetrePerGigabit() {
        // Each extra metre adds 2 * 5 ns = 10 ns, i.e. 10 * 400 = 4,000 bit times = 500 B at 400G.
        long a = HeadroomCalculator.required(400, 10, 4200).totalBytes();
        long b = HeadroomCalculator.required(400, 11, 4200).totalBytes();
        assertEquals(500, b - a);
        assertTrue(HeadroomCalculator.required(400, 10, 4200).extrapolated());
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
