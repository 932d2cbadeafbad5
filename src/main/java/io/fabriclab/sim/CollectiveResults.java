package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.fabriclab.workload.Collective;
import io.fabriclab.workload.NcclCollective;

/**
 * Collective results from a run's flows and local tasks, the same for either engine (packet or
 * flow): the flows labelled "KIND:NAME" of ring collectives ({@link Collective}) and NCCL
 * collectives ({@link NcclCollective}) with their NVLink transfers. Each engine shows its flows
 * and tasks through {@link Flows} and {@link Tasks}.
 */
final class CollectiveResults {
    private CollectiveResults() {
    }

    /** A run's network flows, by flow id. */
    interface Flows {
        int count();

        String label(int i);

        String src(int i);

        long bytes(int i);

        /** The workload's start time of the flow (before its dependencies were known). */
        long specStartPs(int i);

        /** When the flow started sending; -1 if it did not. */
        long startedPs(int i);

        /** When its data had all arrived; -1 if it did not. */
        long finishPs(int i);

        /** Time spent recovering from losses, up to the end of the run. */
        long stallPs(int i);

        long retransmittedBytes(int i);
    }

    /** A run's NVLink transfers and compute tasks (none: count 0). */
    interface Tasks {
        int count();

        String label(int i);

        long startedPs(int i);

        long finishPs(int i);
    }

    static final Tasks NO_TASKS = new Tasks() {
        @Override
        public int count() {
            return 0;
        }

        @Override
        public String label(int i) {
            throw new IndexOutOfBoundsException(i);
        }

        @Override
        public long startedPs(int i) {
            throw new IndexOutOfBoundsException(i);
        }

        @Override
        public long finishPs(int i) {
            throw new IndexOutOfBoundsException(i);
        }
    };

    /** Ring collectives, then NCCL collectives, as {@link SimResults#collectives()} lists them. */
    static List<SimResults.CollectiveResult> of(Flows flows, Tasks tasks, List<Collective> known,
                                                List<NcclCollective> nccl, Predicate<String> elsewhere) {
        java.util.Set<String> ncclLabels = new java.util.HashSet<>();
        nccl.forEach(c -> ncclLabels.add(c.label()));
        List<SimResults.CollectiveResult> out = new ArrayList<>(collectives(flows, known, elsewhere.or(ncclLabels::contains)));
        out.addAll(ncclCollectives(flows, tasks, nccl));
        return out;
    }

    /**
     * NCCL collectives: their network flows and NVLink transfers together, from the first to start
     * to the last to finish; S and n as declared; no per-step list (the steps of a hierarchical or
     * tree algorithm are not one ring's).
     */
    private static List<SimResults.CollectiveResult> ncclCollectives(Flows flows, Tasks local,
                                                                     List<NcclCollective> known) {
        List<SimResults.CollectiveResult> out = new ArrayList<>();
        if (known.isEmpty()) {
            return out;
        }
        Map<String, long[]> acc = new LinkedHashMap<>();
        for (NcclCollective c : known) {
            // start, finish, all done (1/0), stall, retransmitted
            acc.put(c.label(), new long[] {Long.MAX_VALUE, 0, 1, 0, 0});
        }
        for (int f = 0; f < flows.count(); f++) {
            long[] a = acc.get(flows.label(f));
            if (a != null) {
                long started = flows.startedPs(f);
                a[0] = Math.min(a[0], started >= 0 ? started : flows.specStartPs(f));
                a[1] = Math.max(a[1], flows.finishPs(f));
                a[2] &= flows.finishPs(f) >= 0 ? 1 : 0;
                a[3] = Math.max(a[3], flows.stallPs(f));
                a[4] += flows.retransmittedBytes(f);
            }
        }
        for (int i = 0; i < local.count(); i++) {
            long[] a = acc.get(local.label(i));
            if (a != null) {
                a[0] = Math.min(a[0], local.startedPs(i) >= 0 ? local.startedPs(i) : Long.MAX_VALUE);
                a[1] = Math.max(a[1], local.finishPs(i));
                a[2] &= local.finishPs(i) >= 0 ? 1 : 0;
            }
        }
        for (NcclCollective c : known) {
            long[] a = acc.get(c.label());
            boolean done = a[2] == 1 && a[0] != Long.MAX_VALUE;
            long start = a[0] == Long.MAX_VALUE ? 0 : a[0];
            long t = done ? a[1] - start : -1;
            int n = c.ranks().size();
            double algbw = done && t > 0 ? c.bytes() / (t / 1e12) / 1e9 : 0;
            out.add(new SimResults.CollectiveResult(c.name(), c.op().jsonName(), n, c.bytes(), start, done ? a[1] : -1,
                    t, algbw, algbw * c.op().busFactor(n), c.channelsPerRail(), a[3], a[4], List.of()));
        }
        return out;
    }

    /**
     * Collective results, from the flows labelled "KIND:NAME", in order of first appearance. When
     * the run knows the {@link Collective} behind a label, S is its declared size and steps are
     * reported; otherwise S = total bytes / (steps x ranks / n) and no steps.
     */
    private static List<SimResults.CollectiveResult> collectives(Flows flows, List<Collective> known,
                                                                 Predicate<String> elsewhere) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int f = 0; f < flows.count(); f++) {
            String label = flows.label(f);
            int colon = label.indexOf(':');
            if (colon > 0 && Collective.Kind.fromJsonName(label.substring(0, colon)) != null && !elsewhere.test(label)) {
                groups.computeIfAbsent(label, k -> new ArrayList<>()).add(f);
            }
        }
        Map<String, Collective> byLabel = new HashMap<>();
        for (Collective c : known) {
            byLabel.put(c.label(), c);
        }
        List<SimResults.CollectiveResult> out = new ArrayList<>();
        for (var e : groups.entrySet()) {
            String label = e.getKey();
            Collective.Kind kind = Collective.Kind.fromJsonName(label.substring(0, label.indexOf(':')));
            List<Integer> fl = e.getValue();
            Collective meta = byLabel.get(label);
            if (meta != null && meta.flowCount() != fl.size()) {
                meta = null;
            }
            int n = meta != null ? meta.ranks().size() : (int) fl.stream().map(flows::src).distinct().count();
            long total = fl.stream().mapToLong(flows::bytes).sum();
            long s = meta != null ? meta.bytes() : n < 2 ? total : total / kind.stepsTimesRanksOverN(n);
            long start = fl.stream().mapToLong(flows::specStartPs).min().orElse(0);
            boolean done = fl.stream().allMatch(f -> flows.finishPs(f) >= 0);
            long finish = done ? fl.stream().mapToLong(flows::finishPs).max().orElse(-1) : -1;
            long t = done ? finish - start : -1;
            // nccl-tests: algbw = S / t, busbw = algbw x factor (2(n-1)/n all-reduce, (n-1)/n others).
            double algbw = done && t > 0 ? s / (t / 1e12) / 1e9 : 0;
            double busbw = n < 2 ? 0 : algbw * kind.busFactor(n);
            long stall = 0;
            long retx = 0;
            for (int f : fl) {
                stall = Math.max(stall, flows.stallPs(f));
                retx += flows.retransmittedBytes(f);
            }
            List<SimResults.StepResult> steps = new ArrayList<>();
            if (meta != null) {
                int k = meta.steps();
                long[] first = new long[k];
                long[] last = new long[k];
                boolean[] complete = new boolean[k];
                Arrays.fill(first, Long.MAX_VALUE);
                Arrays.fill(complete, true);
                for (int i = 0; i < fl.size(); i++) {
                    int f = fl.get(i);
                    int st = meta.stepOf(i);
                    if (flows.startedPs(f) >= 0) {
                        first[st] = Math.min(first[st], flows.startedPs(f));
                    }
                    if (flows.finishPs(f) >= 0) {
                        last[st] = Math.max(last[st], flows.finishPs(f));
                    } else {
                        complete[st] = false;
                    }
                }
                long prev = start;
                for (int st = 0; st < k; st++) {
                    long sf = complete[st] ? last[st] : -1;
                    steps.add(new SimResults.StepResult(st, first[st] == Long.MAX_VALUE ? -1 : first[st], sf,
                            sf >= 0 && prev >= 0 ? sf - prev : -1));
                    prev = sf;
                }
            }
            out.add(new SimResults.CollectiveResult(label.substring(label.indexOf(':') + 1), kind.jsonName(), n, s, start,
                    finish, t, algbw, busbw, meta != null ? meta.channels() : 1, stall, retx, List.copyOf(steps)));
        }
        return out;
    }
}
