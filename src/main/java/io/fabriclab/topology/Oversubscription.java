package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;

/**
 * Oversubscription of every switch: capacity of its links down (to devices of a lower tier) over
 * capacity of its links up (to devices of a higher tier), as a ratio "down:up" normalised to x:1.
 * Tiers come from {@link DeviceRole#tier()}, so hand-drawn fabrics work as drawn; links between
 * devices of the same tier (peer links) count neither way; links marked DOWN are left out.
 *
 * <p>A switch with no working uplink while the fabric has a higher tier has an infinite ratio (its
 * servers are cut off from the rest); a switch of the top tier has none (NaN, "top tier").
 *
 * @param switches  every switch, in fabric order
 * @param tiers     per tier: sums over the switches of that tier that have a ratio
 * @param worstLeaf the tier-1 switch (leaf or rail) with the highest ratio; null when none has one
 *                  (a plain component rather than an Optional so the record serialises as is)
 */
public record Oversubscription(List<SwitchRatio> switches, List<TierRatio> tiers, SwitchRatio worstLeaf) {

    /** One switch: capacities in Gb/s and down/up (NaN at the top tier, infinite if cut off). */
    public record SwitchRatio(String deviceId, DeviceRole role, long downGbps, long upGbps, double ratio) {
        public boolean topTier() {
            return Double.isNaN(ratio);
        }

        public String label() {
            return format(ratio);
        }
    }

    /** One tier: sums of down and up capacity over its switches that have a ratio. */
    public record TierRatio(int tier, long downGbps, long upGbps, double ratio) {
        public String label() {
            return format(ratio);
        }
    }

    public static Oversubscription of(Fabric fabric) {
        int topTier = fabric.switches().stream().mapToInt(d -> d.role().tier()).max().orElse(0);
        List<SwitchRatio> out = new ArrayList<>();
        Map<Integer, long[]> byTier = new TreeMap<>();
        for (Device sw : fabric.switches()) {
            long down = 0;
            long up = 0;
            int tier = sw.role().tier();
            for (Link l : fabric.linksOf(sw)) {
                if (!l.isUp()) {
                    continue;
                }
                int other = l.other(sw).role().tier();
                if (other < tier) {
                    down += l.speedGbps();
                } else if (other > tier) {
                    up += l.speedGbps();
                }
            }
            double ratio;
            if (up > 0) {
                ratio = (double) down / up;
            } else {
                ratio = tier < topTier ? Double.POSITIVE_INFINITY : Double.NaN;
            }
            out.add(new SwitchRatio(sw.id(), sw.role(), down, up, ratio));
            if (!Double.isNaN(ratio)) {
                long[] sums = byTier.computeIfAbsent(tier, t -> new long[2]);
                sums[0] += down;
                sums[1] += up;
            }
        }
        List<TierRatio> tiers = new ArrayList<>();
        byTier.forEach((tier, s) -> tiers.add(new TierRatio(tier, s[0], s[1],
                s[1] > 0 ? (double) s[0] / s[1] : Double.POSITIVE_INFINITY)));
        SwitchRatio worst = out.stream()
                .filter(r -> r.role().tier() == 1 && !r.topTier())
                .max(Comparator.comparingDouble(SwitchRatio::ratio)).orElse(null);
        return new Oversubscription(List.copyOf(out), List.copyOf(tiers), worst);
    }

    public Optional<SwitchRatio> findWorstLeaf() {
        return Optional.ofNullable(worstLeaf);
    }

    public Optional<SwitchRatio> forSwitch(String deviceId) {
        return switches.stream().filter(r -> r.deviceId().equals(deviceId)).findFirst();
    }

    public Optional<TierRatio> forTier(int tier) {
        return tiers.stream().filter(t -> t.tier() == tier).findFirst();
    }

    /** "1:1", "2:1", "1.5:1"; "cut off" when infinite, "top tier" when NaN. */
    public static String format(double ratio) {
        if (Double.isNaN(ratio)) {
            return "top tier";
        }
        if (Double.isInfinite(ratio)) {
            return "cut off";
        }
        double r = Math.round(ratio * 100) / 100.0;
        String s = r == Math.rint(r) ? Long.toString((long) r) : String.format(Locale.ROOT, "%.2f", r).replaceAll("0+$", "");
        return s + ":1";
    }
}
