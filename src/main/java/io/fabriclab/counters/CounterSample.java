package io.fabriclab.counters;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One reading of a source's counters at one time: a counters file, or one scrape of a URL.
 *
 * @param source   the file or URL, as the user named it
 * @param format   what it was read as
 * @param time     when the counters were read (from the data, a {@code # time:} line, the caller, or
 *                 the file's modification time); null when nothing says
 * @param readings every value understood, in file order
 * @param unknown  names the source held that FabricLab does not map to a kind (listed, not an error)
 */
public record CounterSample(String source, CountersFormat format, Instant time, List<Reading> readings,
                            List<String> unknown) {

    public CounterSample {
        readings = List.copyOf(readings);
        unknown = List.copyOf(unknown);
    }

    /** The same sample at another time (the caller's clock or interval). */
    public CounterSample at(Instant t) {
        return new CounterSample(source, format, t, readings, unknown);
    }

    /**
     * The values by key: cumulative counters of one key summed (a port's unicast and multicast queues
     * of one priority), gauges at their largest.
     */
    public Map<Reading.Key, Double> values() {
        Map<Reading.Key, Double> out = new LinkedHashMap<>();
        for (Reading r : readings) {
            out.merge(r.key(), r.value(), r.kind().cumulative() ? Double::sum : Math::max);
        }
        return out;
    }
}
