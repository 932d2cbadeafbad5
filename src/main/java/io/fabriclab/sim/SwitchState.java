package io.fabriclab.sim;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.Device;

/**
 * A switch's packet memory as a Broadcom-style MMU (SONiC's buffer model) divides it: one shared
 * pool that every packet is admitted into, lossy or lossless, and per (ingress port, lossless
 * priority group) a headroom reservation outside the pool that takes only what arrives after the
 * group has crossed its threshold (docs/model.md, Switch buffer). {@link #occupiedBytes} never
 * exceeds {@link #poolBytes}; a group's headroom never exceeds its reservation.
 */
final class SwitchState {
    final Device device;
    final int index;
    final long poolBytes;
    final boolean dynamic;
    final long staticLimitBytes;
    final double alpha;
    final long reservedPerQueueBytes;
    /** The switch's egress ports (filled by the simulator). */
    final java.util.List<EgressPort> egress = new java.util.ArrayList<>();
    /** Bytes in the shared pool (lossy packets and lossless packets admitted below their group's threshold). */
    long occupiedBytes;
    long maxOccupiedBytes;
    /** Bytes held in the headroom reservations of this switch's ingress priority groups. */
    long headroomBytes;
    long maxHeadroomBytes;

    SwitchState(Device device, int index, BufferConfig cfg) {
        this.device = device;
        this.index = index;
        this.poolBytes = cfg.poolBytes();
        this.dynamic = cfg.mode() == BufferConfig.ThresholdMode.DYNAMIC;
        this.staticLimitBytes = cfg.staticLimitBytes();
        this.alpha = cfg.alpha();
        this.reservedPerQueueBytes = cfg.reservedPerQueueBytes();
    }

    /**
     * Whether a lossy egress queue holding {@code queueBytes} may take {@code bytes} more: static
     * limit, or the dynamic threshold T = alpha * (pool - occupied) (Choudhury and Hahne), plus the
     * queue's reserved minimum; never beyond the pool.
     */
    boolean admitsLossy(long queueBytes, int bytes) {
        if (occupiedBytes + bytes > poolBytes) {
            return false;
        }
        long limit = dynamic ? reservedPerQueueBytes + (long) (alpha * (poolBytes - occupiedBytes))
                : reservedPerQueueBytes + staticLimitBytes;
        return queueBytes + bytes <= limit;
    }

    /**
     * The threshold of a lossless ingress priority group whose static XOFF is {@code xoffBytes}:
     * in DYNAMIC mode the group's share of the free pool, alpha x (pool - occupied), when that is
     * lower (Broadcom's dynamic PG shared limit, SONiC's {@code dynamic_th}); in STATIC mode the
     * static XOFF alone. The group is admitted into the pool while it is at or below this
     * threshold; the packet that takes it above triggers XOFF, later ones go to headroom.
     */
    long pgThreshold(long xoffBytes) {
        if (!dynamic) {
            return xoffBytes;
        }
        long share = (long) (alpha * (poolBytes - occupiedBytes));
        return share < xoffBytes ? share : xoffBytes;
    }
}
