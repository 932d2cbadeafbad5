package io.fabriclab.sim;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.Device;

/** A switch's shared buffer: how much of the pool is occupied, and the admission rule of its queues. */
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
    long occupiedBytes;
    long maxOccupiedBytes;

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
}
