package io.fabriclab.counters;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which {@link CounterKind} a device's counter name means. Two families of names:
 * <ul>
 * <li>the NVIDIA mlx5 driver's, as {@code ethtool -S} and {@code /sys/class/infiniband/.../hw_counters}
 * show them (Linux kernel, Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst;
 * NVIDIA, "Understanding mlx5 Linux Counters and Status Parameters"): {@code rx_prio3_pause},
 * {@code tx_prio3_pause_duration}, {@code np_cnp_sent}, {@code rp_cnp_handled},
 * {@code np_ecn_marked_roce_packets}, {@code rx_discards_phy} and the rest listed below;</li>
 * <li>Prometheus metric names from switch and host exporters, which differ by exporter: read by their
 * words ({@code pfc}+{@code rx}, {@code ecn}+{@code marked}, {@code transmit}+{@code bytes}, ...), after
 * the node_exporter ethtool collector's prefix {@code node_ethtool_} is taken off (its names are the
 * driver's). docs/counters.md lists the words.</li>
 * </ul>
 */
public final class CounterNames {

    /** A name understood: its kind and the priority it names (-1: none). */
    public record Meaning(CounterKind kind, int priority) {
    }

    private static final Pattern PRIO = Pattern.compile("(rx|tx)_prio(\\d)_(pause|pause_duration|discards|bytes)");

    private CounterNames() {
    }

    /** The meaning of an mlx5 (ethtool -S or hw_counters) name, or null. */
    public static Meaning driver(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        Matcher m = PRIO.matcher(n);
        if (m.matches()) {
            boolean rx = m.group(1).equals("rx");
            int p = Integer.parseInt(m.group(2));
            return switch (m.group(3)) {
                case "pause" -> new Meaning(rx ? CounterKind.PFC_RX : CounterKind.PFC_TX, p);
                case "pause_duration" -> new Meaning(rx ? CounterKind.PAUSE_RX_US : CounterKind.PAUSE_TX_US, p);
                case "discards" -> rx ? new Meaning(CounterKind.DROPS, p) : null;
                default -> new Meaning(rx ? CounterKind.RX_BYTES : CounterKind.TX_BYTES, p);
            };
        }
        return switch (n) {
            case "np_cnp_sent" -> new Meaning(CounterKind.CNP_SENT, -1);
            case "rp_cnp_handled" -> new Meaning(CounterKind.CNP_HANDLED, -1);
            case "np_ecn_marked_roce_packets" -> new Meaning(CounterKind.ECN_RECEIVED, -1);
            // Discards of the physical port (no buffer in the NIC) and receive-queue shortage (out_of_buffer).
            case "rx_discards_phy", "tx_discards_phy", "rx_out_of_buffer", "out_of_buffer" -> new Meaning(CounterKind.DROPS, -1);
            // The port's bytes on the wire; the software rx_bytes/tx_bytes would count the same bytes twice.
            case "rx_bytes_phy" -> new Meaning(CounterKind.RX_BYTES, -1);
            case "tx_bytes_phy" -> new Meaning(CounterKind.TX_BYTES, -1);
            default -> null;
        };
    }

    /**
     * The meaning of a Prometheus metric name (histogram and summary series excluded by the caller),
     * or null; {@code seconds} is set when the name says its unit is seconds (a pause duration then
     * becomes microseconds).
     */
    public static Meaning metric(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("node_ethtool_")) {
            return driver(n.substring("node_ethtool_".length()));
        }
        Meaning direct = driver(n);
        if (direct != null) {
            return direct;
        }
        Set<String> w = new HashSet<>(Arrays.asList(n.split("_")));
        boolean rx = w.contains("rx") || w.contains("receive") || w.contains("received") || w.contains("in");
        boolean tx = w.contains("tx") || w.contains("transmit") || w.contains("transmitted") || w.contains("sent")
                || w.contains("out");
        if (w.contains("pfc") || w.contains("pause")) {
            if (w.contains("duration") || w.contains("time")) {
                return rx ? new Meaning(CounterKind.PAUSE_RX_US, -1) : tx ? new Meaning(CounterKind.PAUSE_TX_US, -1) : null;
            }
            return rx ? new Meaning(CounterKind.PFC_RX, -1) : tx ? new Meaning(CounterKind.PFC_TX, -1) : null;
        }
        if (w.contains("cnp") || w.contains("cnps")) {
            return w.contains("handled") || rx ? new Meaning(CounterKind.CNP_HANDLED, -1)
                    : tx ? new Meaning(CounterKind.CNP_SENT, -1) : null;
        }
        if (w.contains("ecn") && (w.contains("marked") || w.contains("mark") || w.contains("marks"))) {
            return rx || w.contains("np") ? new Meaning(CounterKind.ECN_RECEIVED, -1) : new Meaning(CounterKind.ECN_MARKED, -1);
        }
        if (w.contains("watermark")) {
            if (w.contains("pg") || w.contains("priority")) {
                return new Meaning(CounterKind.PG_WATERMARK, -1);
            }
            return w.contains("queue") ? new Meaning(CounterKind.QUEUE_WATERMARK, -1) : null;
        }
        if (w.contains("drop") || w.contains("dropped") || w.contains("drops") || w.contains("discard")
                || w.contains("discards")) {
            return new Meaning(CounterKind.DROPS, -1);
        }
        if (w.contains("bytes") || w.contains("octets")) {
            return tx ? new Meaning(CounterKind.TX_BYTES, -1) : rx ? new Meaning(CounterKind.RX_BYTES, -1) : null;
        }
        return null;
    }

    /** Whether a Prometheus metric name says it is in seconds (a pause duration then counts microseconds × 10⁶). */
    public static boolean inSeconds(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.endsWith("_seconds") || n.endsWith("_seconds_total");
    }

    /** The priority in a label value ("3", "UC3", "PG3", "prio3"), -1 when there is none. */
    public static int priorityOf(String value) {
        if (value == null) {
            return -1;
        }
        Matcher m = Pattern.compile("(\\d+)$").matcher(value.trim());
        if (!m.find()) {
            return -1;
        }
        int p = Integer.parseInt(m.group(1));
        String v = value.trim().toUpperCase(Locale.ROOT);
        // SONiC numbers a port's multicast queues after its unicast ones: MC8 is the queue of class 0.
        if (v.startsWith("MC") && p >= 8) {
            p -= 8;
        }
        return p <= 15 ? p : -1;
    }
}
