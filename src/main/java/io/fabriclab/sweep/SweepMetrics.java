package io.fabriclab.sweep;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

import io.fabriclab.sim.SimResults;

/**
 * The metrics a sweep can collect from one run, each read from the run's {@link SimResults}
 * (docs/format-sweep.md lists them with their units). Every run records all of them, so a run
 * file is the same whatever metrics a sweep file asks for and can be reused by another sweep.
 */
public final class SweepMetrics {
    /** Metric name to how it is read; in the order docs/format-sweep.md lists them. */
    private static final Map<String, ToDoubleFunction<SimResults>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("fctP50Us", r -> r.summary().fctP50Us());
        ALL.put("fctP99Us", r -> r.summary().fctP99Us());
        ALL.put("fctMaxUs", r -> r.summary().fctMaxUs());
        ALL.put("meanThroughputGbps", r -> r.summary().meanThroughputGbps());
        ALL.put("flowsCompleted", r -> r.run().flowsCompleted());
        ALL.put("flowsNotCompleted", r -> r.run().flows() - r.run().flowsCompleted());
        ALL.put("simulatedUs", r -> r.run().simulatedPs() / 1e6);
        ALL.put("drops", r -> r.summary().drops());
        ALL.put("bufferDrops", r -> r.summary().bufferDrops());
        ALL.put("headroomOverflowDrops", r -> r.summary().headroomOverflowDrops());
        ALL.put("watchdogDrops", r -> r.summary().watchdogDrops());
        ALL.put("ecnMarked", r -> r.summary().ecnMarked());
        ALL.put("cnpsSent", r -> r.summary().cnpsSent());
        ALL.put("pauseFramesSent", r -> r.summary().pauseFramesSent());
        ALL.put("pausedUs", r -> r.summary().pausedPs() / 1e6);
        ALL.put("watchdogStorms", r -> r.summary().watchdogStorms());
        ALL.put("deadlocks", r -> r.deadlocks().size());
        ALL.put("maxQueueBytes", r -> r.summary().maxQueueBytes());
        ALL.put("retransmittedBytes", r -> r.summary().retransmittedBytes());
        // The slowest collective gates a training step, so a sweep compares the minimum busbw and the longest time.
        ALL.put("busbwGBps", r -> r.collectives().isEmpty() ? Double.NaN
                : r.collectives().stream().mapToDouble(SimResults.CollectiveResult::busbwGBps).min().orElse(Double.NaN));
        ALL.put("algbwGBps", r -> r.collectives().isEmpty() ? Double.NaN
                : r.collectives().stream().mapToDouble(SimResults.CollectiveResult::algbwGBps).min().orElse(Double.NaN));
        ALL.put("collectiveTimeUs", r -> r.collectives().isEmpty() ? Double.NaN
                : r.collectives().stream().mapToDouble(c -> c.timePs() < 0 ? Double.POSITIVE_INFINITY : c.timePs() / 1e6)
                .max().orElse(Double.NaN));
        ALL.put("events", r -> r.run().events());
    }

    /** Every metric name, in documentation order. */
    public static final List<String> NAMES = List.copyOf(ALL.keySet());

    private SweepMetrics() {
    }

    /** The unit of a metric's values, from its name: "us", "Gb/s", "GB/s", "B", or "" for a count. */
    public static String unit(String name) {
        if (name.endsWith("Us")) {
            return "us";
        }
        if (name.endsWith("Gbps")) {
            return "Gb/s";
        }
        if (name.endsWith("GBps")) {
            return "GB/s";
        }
        if (name.endsWith("Bytes")) {
            return "B";
        }
        return "";
    }

    /** Whether a larger value of the metric is better (throughput, bandwidth, completed flows); else smaller is. */
    public static boolean higherIsBetter(String name) {
        return name.equals("meanThroughputGbps") || name.equals("flowsCompleted") || name.equals("busbwGBps")
                || name.equals("algbwGBps");
    }

    public static boolean exists(String name) {
        return ALL.containsKey(name);
    }

    /** Every metric of a run, by name (NaN where a metric does not apply, e.g. busbw without collectives). */
    public static SortedMap<String, Double> of(SimResults r) {
        SortedMap<String, Double> m = new TreeMap<>();
        ALL.forEach((k, f) -> m.put(k, f.applyAsDouble(r)));
        return m;
    }
}
