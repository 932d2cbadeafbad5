package io.fabriclab.counters;

/**
 * What a measured counter counts, in FabricLab's words, whatever the device called it
 * ({@link CounterNames} maps the names switches and NICs use). Cumulative counters only grow (until
 * a reset) and become rates from two samples; gauges are a level read as it is (a watermark).
 * docs/counters.md lists the names each kind is read from and where their meaning is documented.
 */
public enum CounterKind {
    /** PFC pause frames received on the port: its peer paused the port's egress (SONiC "Port Rx PFCn", ethtool rx_prioN_pause). */
    PFC_RX("PFC pause frames received", "frames", true),
    /** PFC pause frames the port sent: it paused its peer (SONiC "Port Tx PFCn", ethtool tx_prioN_pause). */
    PFC_TX("PFC pause frames sent", "frames", true),
    /** Time the port's egress was held by received pauses, microseconds (mlx5 rx_prioN_pause_duration). */
    PAUSE_RX_US("time paused by received PFC", "µs", true),
    /** Time the port held its peer paused, microseconds (mlx5 tx_prioN_pause_duration). */
    PAUSE_TX_US("time the port paused its peer", "µs", true),
    /** Packets ECN-marked at the port's egress queue (SONiC queue EcnMarked/pkts). */
    ECN_MARKED("ECN-marked packets at egress", "packets", true),
    /** ECN-marked RoCE packets a NIC received, as notification point (mlx5 np_ecn_marked_roce_packets). */
    ECN_RECEIVED("ECN-marked packets received (NIC)", "packets", true),
    /** CNPs a NIC sent as notification point (np_cnp_sent). */
    CNP_SENT("CNPs sent (NIC)", "packets", true),
    /** CNPs a NIC's reaction point handled, each a rate cut (rp_cnp_handled). */
    CNP_HANDLED("CNPs handled (NIC)", "packets", true),
    /** Packets dropped or discarded at the port (queue drops, RX/TX discards, out of buffer). */
    DROPS("packets dropped", "packets", true),
    /** Bytes the port transmitted. */
    TX_BYTES("bytes transmitted", "bytes", true),
    /** Bytes the port received. */
    RX_BYTES("bytes received", "bytes", true),
    /** Packets the port transmitted (portstat TX_OK); used when bytes are not given. */
    TX_PACKETS("packets transmitted", "packets", true),
    /** Highest egress queue occupancy since the last clear, bytes (SONiC show queue watermark). */
    QUEUE_WATERMARK("egress queue watermark", "bytes", false),
    /** Highest ingress priority-group occupancy since the last clear, bytes (SONiC show priority-group watermark). */
    PG_WATERMARK("ingress priority-group watermark", "bytes", false);

    private final String meaning;
    private final String unit;
    private final boolean cumulative;

    CounterKind(String meaning, String unit, boolean cumulative) {
        this.meaning = meaning;
        this.unit = unit;
        this.cumulative = cumulative;
    }

    public String meaning() {
        return meaning;
    }

    public String unit() {
        return unit;
    }

    /** A counter that only grows between resets (rates from two samples); false for a gauge. */
    public boolean cumulative() {
        return cumulative;
    }
}
