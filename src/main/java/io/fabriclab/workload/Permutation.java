package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import io.fabriclab.model.Fabric;

/**
 * Permutation traffic: every NIC sends {@code bytes} to exactly one other NIC and receives from
 * exactly one (a random derangement drawn with the seed), the standard stress test of a fabric's
 * bisection and ECMP.
 *
 * @param nics the NICs taking part; empty = every connected NIC of the fabric
 */
public record Permutation(List<String> nics, long bytes, long startPs, int priority, long seed) implements Workload {
    public Permutation {
        nics = List.copyOf(nics == null ? List.of() : nics);
    }

    @Override
    public List<FlowSpec> flows(Fabric fabric) {
        List<String> members = nics.isEmpty() ? Nics.all(fabric) : nics;
        int n = members.size();
        if (n < 2) {
            throw new IllegalArgumentException("a permutation needs at least 2 NICs, got " + n);
        }
        int[] target = derangement(n, new SplittableRandom(seed));
        List<FlowSpec> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new FlowSpec(members.get(i), members.get(target[i]), bytes, startPs, priority, "permutation"));
        }
        return out;
    }

    /** A uniformly shuffled permutation with no fixed point: Fisher-Yates, then each fixed point swapped with a neighbour. */
    static int[] derangement(int n, SplittableRandom rnd) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        for (int i = 0; i < n; i++) {
            if (p[i] == i) {
                int j = (i + 1) % n;
                int t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
        }
        return p;
    }

    @Override
    public String describe() {
        return "permutation of " + (nics.isEmpty() ? "all" : String.valueOf(nics.size())) + " NICs";
    }
}
