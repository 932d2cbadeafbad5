package io.fabriclab.model;

/**
 * The switch's shared packet buffer and how each egress queue is admitted into it.
 *
 * @param poolBytes            shared pool of the whole switch
 * @param mode                 STATIC: each queue may hold up to {@code staticLimitBytes};
 *                             DYNAMIC: up to alpha * (pool - occupied)
 * @param staticLimitBytes     per-queue limit in STATIC mode
 * @param alpha                dynamic threshold factor in DYNAMIC mode (commonly 1/8 to 8)
 * @param reservedPerQueueBytes guaranteed minimum per queue outside the shared pool
 */
public record BufferConfig(long poolBytes, ThresholdMode mode, long staticLimitBytes, double alpha,
                           long reservedPerQueueBytes) {

    public enum ThresholdMode { STATIC, DYNAMIC }

    public BufferConfig {
        mode = mode == null ? ThresholdMode.DYNAMIC : mode;
    }

    /** The largest queue the thresholds allow when the rest of the buffer is empty. */
    public long maxQueueBytes() {
        return switch (mode) {
            case STATIC -> Math.min(staticLimitBytes, poolBytes) + reservedPerQueueBytes;
            case DYNAMIC -> (long) (poolBytes * alpha / (1 + alpha)) + reservedPerQueueBytes;
        };
    }
}
