package io.fabriclab.sim;

import java.util.Arrays;

/**
 * Max-min fair rates by progressive filling (Bertsekas and Gallager, Data Networks, 2nd ed.,
 * section 6.5.2): every unfrozen flow's rate grows at the same pace; when a resource fills, the
 * flows that use it are frozen at their rate; repeat until every flow is frozen. The result is the
 * unique allocation in which no flow can get more without taking from a flow with no more.
 * Resources are indexed 0..r-1, flows 0..n-1; flow i uses resources {@code uses[i]}.
 */
public final class MaxMinFair {
    private MaxMinFair() {
    }

    /**
     * The max-min fair rate of every flow.
     *
     * @param capacity capacity of each resource (same unit as the rates)
     * @param uses     the resources each flow crosses (each at least one)
     * @return rates, one per flow
     */
    public static double[] rates(double[] capacity, int[][] uses) {
        int n = uses.length;
        double[] rate = new double[n];
        boolean[] frozen = new boolean[n];
        double[] left = capacity.clone();
        int[] users = new int[capacity.length];
        for (int[] u : uses) {
            for (int r : u) {
                users[r]++;
            }
        }
        int unfrozen = n;
        while (unfrozen > 0) {
            // The next resource to fill: the smallest equal share of what is left among its unfrozen users.
            double step = Double.POSITIVE_INFINITY;
            for (int r = 0; r < left.length; r++) {
                if (users[r] > 0) {
                    step = Math.min(step, left[r] / users[r]);
                }
            }
            if (step == Double.POSITIVE_INFINITY) {
                break;
            }
            for (int i = 0; i < n; i++) {
                if (!frozen[i]) {
                    rate[i] += step;
                    for (int r : uses[i]) {
                        left[r] -= step;
                    }
                }
            }
            boolean[] full = new boolean[left.length];
            for (int r = 0; r < left.length; r++) {
                full[r] = users[r] > 0 && left[r] <= 1e-12 * Math.max(1, capacity[r]);
            }
            for (int i = 0; i < n; i++) {
                if (frozen[i]) {
                    continue;
                }
                boolean stop = false;
                for (int r : uses[i]) {
                    stop |= full[r];
                }
                if (stop) {
                    frozen[i] = true;
                    unfrozen--;
                    for (int r : uses[i]) {
                        users[r]--;
                    }
                }
            }
        }
        return rate;
    }

    /** Convenience for tests: rates rounded to {@code digits} decimals. */
    static double[] rounded(double[] rates, int digits) {
        double f = Math.pow(10, digits);
        return Arrays.stream(rates).map(v -> Math.round(v * f) / f).toArray();
    }
}
