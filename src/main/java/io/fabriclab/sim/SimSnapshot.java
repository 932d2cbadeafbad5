package io.fabriclab.sim;

import java.util.List;

/**
 * What the live view draws, at one simulated instant: per link direction (egress port) its queue
 * depth, the priorities the peer is pausing, and what happened since the previous snapshot; per
 * flow its DCQCN rate. Immutable once published (the arrays are fresh copies); the simulator thread
 * hands it to the viewer, which takes only the newest.
 *
 * @param ports          egress ports as "device:port", index i matches every per-port array
 * @param queueBytes     bytes queued at each egress port (all classes)
 * @param pausedMask     bit p set when priority p of that egress is paused by its peer
 * @param ecnMarks       ECN marks at that egress since the previous snapshot
 * @param drops          drops at that egress since the previous snapshot (all causes)
 * @param utilization    fraction of the wire used since the previous snapshot
 * @param flowRateGbps   current DCQCN rate of each flow (index = flow id), 0 once complete
 */
public record SimSnapshot(long timePs, long events, int flowsCompleted, List<String> ports, long[] queueBytes,
                          int[] pausedMask, long[] ecnMarks, long[] drops, double[] utilization, double[] flowRateGbps,
                          long cnpsSinceLast, long pauseFramesSinceLast) {
}
