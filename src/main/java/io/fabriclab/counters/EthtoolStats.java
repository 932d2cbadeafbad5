package io.fabriclab.counters;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabriclab.io.InputException;

/**
 * Reads {@code ethtool -S IFACE} (ethtool(8), --statistics: the driver's own counters, one
 * {@code name: value} a line under "NIC statistics:"). The names are the driver's; those of the
 * mlx5 driver that matter to RoCE are mapped by {@link CounterNames#driver} (pause frames and
 * durations per priority, CNPs, ECN-marked RoCE packets, discards, bytes); every other name is
 * listed as unknown. The output does not name the interface or the host: the caller's hint does
 * ({@code DEVICE:IFACE=FILE}, or the file name).
 */
public final class EthtoolStats {
    private static final Pattern LINE = Pattern.compile("\\s*([^:]+?)\\s*:\\s*(\\S+)\\s*");

    private EthtoolStats() {
    }

    public static CounterSample parse(String text, String source, String device, String iface) throws InputException {
        LineProblems problems = new LineProblems(source);
        List<Reading> readings = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length && !problems.full(); i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#") || t.equalsIgnoreCase("NIC statistics:")) {
                continue;
            }
            Matcher m = LINE.matcher(t);
            Double v = m.matches() ? LineProblems.number(m.group(2)) : null;
            if (v == null || v < 0) {
                problems.add(i + 1, t, "not an ethtool statistic", "name: value (a whole number), as ethtool -S prints");
                continue;
            }
            CounterNames.Meaning meaning = CounterNames.driver(m.group(1));
            if (meaning == null) {
                unknown.add(m.group(1));
                continue;
            }
            readings.add(new Reading(device, iface, meaning.priority(), meaning.kind(), v, i + 1));
        }
        problems.throwIfAny();
        return new CounterSample(source, CountersFormat.ETHTOOL, null, readings, new ArrayList<>(unknown));
    }
}
