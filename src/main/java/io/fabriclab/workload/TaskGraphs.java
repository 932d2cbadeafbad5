package io.fabriclab.workload;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/** Reading a list of tasks as a dependency graph. */
public final class TaskGraphs {
    private TaskGraphs() {
    }

    /**
     * When the last task would finish if each task took {@code duration} and started as soon as
     * all it waits for finished (the longest path; tasks on one GPU are ordered by their own
     * dependencies). With communication at 0 and compute at its duration this is the step with
     * free communication: compute plus pipeline bubbles.
     */
    public static long longestPath(List<FlowSpec> tasks, ToLongFunction<FlowSpec> duration) {
        int n = tasks.size();
        Map<String, Integer> byId = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (!tasks.get(i).id().isEmpty()) {
                byId.put(tasks.get(i).id(), i);
            }
        }
        int[] indegree = new int[n];
        int[][] out = new int[n][];
        int[] outCount = new int[n];
        for (int i = 0; i < n; i++) {
            for (String dep : tasks.get(i).after()) {
                Integer d = byId.get(dep);
                if (d == null) {
                    throw new IllegalArgumentException("task " + i + " waits for unknown id '" + dep + "'");
                }
                indegree[i]++;
                if (out[d] == null) {
                    out[d] = new int[2];
                } else if (outCount[d] == out[d].length) {
                    out[d] = java.util.Arrays.copyOf(out[d], outCount[d] * 2);
                }
                out[d][outCount[d]++] = i;
            }
        }
        long[] ready = new long[n];
        long end = 0;
        ArrayDeque<Integer> q = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            ready[i] = tasks.get(i).startPs();
            if (indegree[i] == 0) {
                q.add(i);
            }
        }
        int seen = 0;
        while (!q.isEmpty()) {
            int i = q.poll();
            seen++;
            long finish = ready[i] + duration.applyAsLong(tasks.get(i));
            end = Math.max(end, finish);
            for (int k = 0; k < outCount[i]; k++) {
                int j = out[i][k];
                ready[j] = Math.max(ready[j], finish);
                if (--indegree[j] == 0) {
                    q.add(j);
                }
            }
        }
        if (seen != n) {
            throw new IllegalArgumentException("the tasks wait for each other in a cycle");
        }
        return end;
    }

    /** Compute at its duration, communication free. */
    public static long computeOnly(List<FlowSpec> tasks) {
        return longestPath(tasks, t -> t.kind() == FlowSpec.Kind.COMPUTE ? t.delayPs() : 0);
    }
}
