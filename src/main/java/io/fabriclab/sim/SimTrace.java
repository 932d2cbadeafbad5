package io.fabriclab.sim;

/**
 * Optional observer of individual simulator decisions, for validation tests and debugging. Every
 * method has an empty default; a null trace costs one branch on the hot path.
 */
public interface SimTrace {
    /** A frame starts serialization on an egress port ("device:port"). */
    default void transmitStart(long nowPs, String port, String kind, int priority, int flow, int psn) {
    }

    /** A PFC frame was queued at a switch port toward its upstream peer. */
    default void pfcSent(long nowPs, String port, int priority, int quanta, long ingressBytes) {
    }

    /** An ECN marking decision on an ECT packet at an egress queue. */
    default void ecnDecision(long nowPs, String port, int trafficClass, long queueBytes, double probability,
                             boolean marked) {
    }

    /**
     * InfiniBand congestion control: a data packet queued at a switch egress port and VL found
     * {@code queueBytes} ahead of it; {@code marked} whether the port marked it with FECN.
     */
    default void fecnDecision(long nowPs, String port, int vl, long queueBytes, boolean marked) {
    }

    /** A packet was dropped at an egress queue. */
    default void drop(long nowPs, String port, int trafficClass, String cause) {
    }

    /** A CNP reached the sender of a flow and its DCQCN rate may have changed. */
    default void cnpReceived(long nowPs, int flow, long rateBps) {
    }
}
