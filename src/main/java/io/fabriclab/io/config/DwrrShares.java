package io.fabriclab.io.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fabriclab.model.SchedulerConfig;

/**
 * DWRR weights as the whole bandwidth percentages EOS ("bandwidth percent") and NX-OS ("bandwidth
 * remaining percent") take: each non-strict class gets 100 * w / sum(w), rounded by the largest
 * remainder method so the shares add up to exactly 100 (ties go to the lower class).
 */
public final class DwrrShares {

    private DwrrShares() {
    }

    /** Percent per non-strict traffic class 0-7, in class order. */
    public static Map<Integer, Integer> percents(SchedulerConfig s, String where) {
        List<Integer> classes = new ArrayList<>();
        long sum = 0;
        for (int c = 0; c < 8; c++) {
            if (!s.strictPriorityClasses().contains(c)) {
                int w = s.dwrrWeights().get(c);
                if (w < 0) {
                    throw new UnexportableQosException(where + ": DWRR weight of class " + c + " is negative");
                }
                classes.add(c);
                sum += w;
            }
        }
        Map<Integer, Integer> out = new TreeMap<>();
        if (classes.isEmpty()) {
            return out;
        }
        if (sum == 0) {
            throw new UnexportableQosException(where + ": every DWRR weight is 0");
        }
        int given = 0;
        Map<Integer, Long> remainder = new TreeMap<>();
        for (int c : classes) {
            long scaled = 100L * s.dwrrWeights().get(c);
            out.put(c, (int) (scaled / sum));
            remainder.put(c, scaled % sum);
            given += (int) (scaled / sum);
        }
        List<Integer> byRemainder = new ArrayList<>(classes);
        byRemainder.sort(Comparator.comparing((Integer c) -> remainder.get(c)).reversed()
                .thenComparing(Comparator.naturalOrder()));
        for (int i = 0; given < 100; i++, given++) {
            int c = byRemainder.get(i);
            out.put(c, out.get(c) + 1);
        }
        return out;
    }
}
