package io.fabriclab.io.config;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The DSCP to traffic-class map every export uses: the class is the DSCP's three precedence bits
 * (DSCP >> 3). It puts RoCEv2 data (DSCP 26, the NVIDIA NIC default) in class 3, CNPs (DSCP 48) in
 * class 6 and best effort (DSCP 0) in class 0, and maps traffic class k to priority group k and
 * queue k. FabricLab's model names traffic classes, not DSCP values, so this map is the contract
 * between the NICs' marking and the exported switch configuration.
 */
public final class DscpClassification {
    public static final int DSCP_VALUES = 64;
    public static final int TRAFFIC_CLASSES = 8;

    private DscpClassification() {
    }

    public static int trafficClass(int dscp) {
        if (dscp < 0 || dscp >= DSCP_VALUES) {
            throw new IllegalArgumentException("DSCP must be 0-63: " + dscp);
        }
        return dscp >> 3;
    }

    /** The DSCP values that land in a traffic class, ascending (eight consecutive values). */
    public static List<Integer> dscpsOf(int trafficClass) {
        return IntStream.range(0, DSCP_VALUES).filter(d -> trafficClass(d) == trafficClass).boxed().toList();
    }
}
