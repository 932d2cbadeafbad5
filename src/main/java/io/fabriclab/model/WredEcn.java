package io.fabriclab.model;

/**
 * WRED/ECN marking curve of one egress queue: p = 0 below Kmin, Pmax * (q - Kmin) / (Kmax - Kmin)
 * between, 1 at or above Kmax.
 */
public record WredEcn(long kminBytes, long kmaxBytes, double pmax) {

    /** Marking probability for a queue of {@code queueBytes}. */
    public double markProbability(long queueBytes) {
        if (queueBytes < kminBytes) {
            return 0.0;
        }
        if (queueBytes >= kmaxBytes) {
            return 1.0;
        }
        return pmax * (double) (queueBytes - kminBytes) / (double) (kmaxBytes - kminBytes);
    }
}
