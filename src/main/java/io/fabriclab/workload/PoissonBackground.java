package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;

/**
 * Background traffic as the DCTCP and HPCC evaluations generate it (HPCC's traffic_gen.py): every
 * NIC starts flows as a Poisson process whose rate makes its offered load {@code load} of its
 * link, lambda = load x B / (8 x mean size); each flow goes to another NIC chosen uniformly; sizes
 * follow the distribution.
 *
 * <p>So that a run of a few milliseconds offers the target load rather than a random amount near
 * it (independent draws from the web-search CDF give +-2.5/sqrt(N) of the total: +-8 % for 1,000
 * flows), the process is drawn conditioned on its expected count: each NIC posts round(lambda T)
 * flows at times uniform in [start, start + T) (the arrival times of a Poisson process given its
 * count), and the sizes of all N flows are stratified: flow k of a random order gets the quantile
 * of a uniform from [k/N, (k+1)/N). Each flow's size still follows the CDF.
 */
public record PoissonBackground(List<String> nics, FlowSizeDistribution sizes, double load, long startPs,
                                long durationPs, int priority, long seed, String label) implements Workload {
    public PoissonBackground {
        nics = List.copyOf(nics == null ? List.of() : nics);
        if (!(load > 0 && load <= 1)) {
            throw new IllegalArgumentException("background load must be more than 0 and at most 1, got " + load);
        }
        if (durationPs <= 0) {
            throw new IllegalArgumentException("background duration must be > 0");
        }
        label = label == null || label.isEmpty() ? "background" : label;
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        List<String> members = nics.isEmpty() ? Nics.all(fabric) : nics;
        int n = members.size();
        if (n < 2) {
            throw new IllegalArgumentException("background traffic needs at least 2 NICs, got " + n);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        long expected = expectedFlows(fabric);
        if (expected > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("background traffic would start " + expected + " flows; at most "
                    + (Integer.MAX_VALUE - 8));
        }
        int[] counts = new int[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            counts[i] = (int) countOf(fabric, members.get(i));
            total += counts[i];
        }
        // Stratified sizes in a random order.
        long[] sz = new long[total];
        for (int k = 0; k < total; k++) {
            sz[k] = sizes.quantile((k + rnd.nextDouble()) / total);
        }
        for (int k = total - 1; k > 0; k--) {
            int j = rnd.nextInt(k + 1);
            long t = sz[k];
            sz[k] = sz[j];
            sz[j] = t;
        }
        List<long[]> posts = new ArrayList<>(total);
        int next = 0;
        for (int i = 0; i < n; i++) {
            long[] times = new long[counts[i]];
            for (int k = 0; k < times.length; k++) {
                times[k] = startPs + (long) (rnd.nextDouble() * durationPs);
            }
            Arrays.sort(times);
            for (long t : times) {
                int d = rnd.nextInt(n - 1);
                posts.add(new long[] {t, i, d >= i ? d + 1 : d, sz[next++]});
            }
        }
        posts.sort((a, b) -> Long.compare(a[0], b[0]));
        List<FlowSpec> out = new ArrayList<>(total);
        for (long[] p : posts) {
            out.add(new FlowSpec(members.get((int) p[1]), members.get((int) p[2]), p[3], p[0], priority, label));
        }
        return out;
    }

    /**
     * The flows {@link #flows} will start, computed without building them, so a caller can refuse a
     * workload that would not fit in memory: the sum over NICs of round(lambda T).
     */
    public long expectedFlows(Fabric fabric) {
        List<String> members = nics.isEmpty() ? Nics.all(fabric) : nics;
        long total = 0;
        for (String nic : members) {
            total += countOf(fabric, nic);
            if (total > Long.MAX_VALUE / 4) {
                return total;
            }
        }
        return total;
    }

    private long countOf(Fabric fabric, String nic) {
        double lambdaPerPs = load * speedBps(fabric, nic) / (8 * sizes.mean()) / 1e12;
        return Math.round(lambdaPerPs * durationPs);
    }

    private static long speedBps(Fabric fabric, String nic) {
        Port p = Nics.resolve(fabric, nic);
        Link l = p == null ? null : fabric.linkAt(p);
        if (l == null) {
            throw new IllegalArgumentException("background NIC '" + nic + "' is not a connected NIC");
        }
        return l.speedGbps() * 1_000_000_000L;
    }

    @Override
    public String describe() {
        return String.format(java.util.Locale.ROOT, "%s background at %.0f %% load (%s sizes)", label, load * 100, sizes.name());
    }
}
