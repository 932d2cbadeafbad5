package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.NcclCollective;
import io.fabriclab.workload.TaskGraphs;

/**
 * What a training step's run says (docs/model.md, Training step): the step time (first task to
 * last), the compute of the busiest GPU, the step with free communication (the longest path
 * through the task graph with every transfer at 0: compute plus pipeline bubbles), the exposed
 * communication (step minus that), the pipeline bubble, the GPUs' idle share, the training
 * throughput, per kind of communication its time and bandwidth, and the critical path: walking back
 * from the last task to finish, always to what it waited for that finished last, the time charged
 * to compute, NVLink and the network, and the network transfers that held it longest.
 */
public final class StepAnalysis {
    private StepAnalysis() {
    }

    /** One kind of communication of the step: transfers, bytes, and for DP collectives their mean bus bandwidth. */
    public record CommResult(String kind, int transfers, long bytes, long busyPs, double meanBusbwGBps) {
    }

    /**
     * A transfer on the critical path and the time the path spent on it, with the port on its path
     * that held it most: the egress port with the deepest queue in the run (or, if none queued, the
     * longest PFC-paused), its largest queue and paused time; null port when nothing queued or paused.
     */
    public record CriticalTransfer(String label, String src, String dst, long bytes, long chargedPs, String port,
                                   long maxQueueBytes, long pausedPs) {
    }

    public record Result(boolean completed, long stepPs, long computePs, long noCommStepPs, long exposedCommPs,
                         long bubblePs, double gpuIdleShare, double tokensPerSecond, long criticalComputePs,
                         long criticalNvlinkPs, long criticalNetworkPs, List<CriticalTransfer> heldBy,
                         List<CommResult> communication) {
        /** Exposed communication as a share of the step. */
        public double exposedShare() {
            return stepPs == 0 ? 0 : (double) exposedCommPs / stepPs;
        }
    }

    /**
     * The safety stop of a training step run to completion: ten times the step's compute, at least
     * the default limit (SimConfig, 1 s of simulated time).
     */
    public static long maxTimePs(io.fabriclab.workload.TrainingJob job) {
        long step = job.computePsPerStep();
        long tenfold = step > Long.MAX_VALUE / 10 ? Long.MAX_VALUE : 10 * step;
        return Math.max(SimConfig.defaults().maxTimePs(), tenfold);
    }

    /** A job's tasks: those labelled "NAME:..." or by its collectives "KIND:NAME-...". */
    public static boolean ofJob(FlowSpec t, String job) {
        String l = t.label();
        return l.startsWith(job + ":") || l.contains(":" + job + "-");
    }

    /**
     * @param all      every task of the run, in the workload's order (as the simulator got them)
     * @param jobName  the job's name ({@link #ofJob})
     * @param tokens   tokens one step trains
     * @param declared the job's collectives by label, for their bus bandwidth
     */
    public static Result of(List<FlowSpec> all, String jobName, SimResults r, long tokens,
                            Map<String, NcclCollective> declared) {
        int[] local = new int[all.size()];
        List<FlowSpec> members = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            local[i] = ofJob(all.get(i), jobName) ? members.size() : -1;
            if (local[i] >= 0) {
                members.add(all.get(i));
            }
        }
        int n = members.size();
        long[] start = new long[n];
        long[] finish = new long[n];
        java.util.Arrays.fill(finish, -1);
        List<Integer> flowTasks = r.local() == null ? null : r.local().flowTasks();
        for (SimResults.FlowResult f : r.flows()) {
            int task = flowTasks == null ? f.id() : flowTasks.get(f.id());
            if (local[task] >= 0) {
                start[local[task]] = f.startPs();
                finish[local[task]] = f.finishPs();
            }
        }
        if (r.local() != null) {
            for (SimResults.TaskResult t : r.local().tasks()) {
                if (local[t.task()] >= 0) {
                    start[local[t.task()]] = t.startPs();
                    finish[local[t.task()]] = t.finishPs();
                }
            }
        }
        List<FlowSpec> job = members;
        boolean completed = true;
        long first = Long.MAX_VALUE;
        long last = 0;
        int lastTask = -1;
        for (int i = 0; i < n; i++) {
            if (finish[i] < 0) {
                completed = false;
                continue;
            }
            first = Math.min(first, job.get(i).startPs());
            if (finish[i] > last) {
                last = finish[i];
                lastTask = i;
            }
        }
        first = first == Long.MAX_VALUE ? 0 : first;
        long step = last - first;
        long noComm = TaskGraphs.computeOnly(job) - first;
        Map<String, Long> busy = new HashMap<>();
        for (int i = 0; i < n; i++) {
            FlowSpec t = job.get(i);
            if (t.kind() == FlowSpec.Kind.COMPUTE && finish[i] >= 0) {
                busy.merge(t.src(), t.delayPs(), Long::sum);
            }
        }
        long compute = busy.values().stream().mapToLong(Long::longValue).max().orElse(0);
        double meanBusy = busy.values().stream().mapToLong(Long::longValue).average().orElse(0);
        // Critical path.
        Map<String, Integer> byId = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (!job.get(i).id().isEmpty()) {
                byId.put(job.get(i).id(), i);
            }
        }
        long cCompute = 0;
        long cNvlink = 0;
        long cNetwork = 0;
        Map<Integer, Long> charged = new LinkedHashMap<>();
        int at = lastTask;
        while (at >= 0) {
            int prev = -1;
            long prevFinish = first;
            for (String dep : job.get(at).after()) {
                Integer d = byId.get(dep);
                if (d != null && finish[d] >= prevFinish) {
                    prev = d;
                    prevFinish = finish[d];
                }
            }
            long seg = Math.max(0, finish[at] - Math.max(prevFinish, first));
            switch (job.get(at).kind()) {
                case COMPUTE -> cCompute += seg;
                case NVLINK -> cNvlink += seg;
                case NETWORK -> {
                    cNetwork += seg;
                    charged.merge(at, seg, Long::sum);
                }
            }
            at = prev;
        }
        List<CriticalTransfer> held = new ArrayList<>();
        // Network flow of each job task (position among the job's tasks -> flow result).
        Map<Integer, SimResults.FlowResult> flowOf = new HashMap<>();
        for (SimResults.FlowResult f : r.flows()) {
            int task = flowTasks == null ? f.id() : flowTasks.get(f.id());
            if (local[task] >= 0) {
                flowOf.put(local[task], f);
            }
        }
        Map<String, long[]> portState = new HashMap<>();
        for (SimResults.QueueResult q : r.queues()) {
            portState.computeIfAbsent(q.port(), k -> new long[2])[0] = Math.max(portState.get(q.port())[0], q.maxBytes());
        }
        for (SimResults.PfcResult pf : r.pfc()) {
            portState.computeIfAbsent(pf.port(), k -> new long[2])[1] = Math.max(portState.get(pf.port())[1], pf.pausedPs());
        }
        charged.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(3)
                .forEach(e -> {
                    FlowSpec t = job.get(e.getKey());
                    SimResults.FlowResult fr = flowOf.get(e.getKey());
                    String port = null;
                    long queue = 0;
                    long paused = 0;
                    if (fr != null) {
                        for (String p : fr.path()) {
                            long[] st = portState.get(p);
                            if (st != null && (st[0] > queue || (st[0] == queue && st[1] > paused))) {
                                port = p;
                                queue = st[0];
                                paused = st[1];
                            }
                        }
                    }
                    held.add(new CriticalTransfer(t.label(), t.src(), t.dst(), t.bytes(), e.getValue(),
                            queue > 0 || paused > 0 ? port : null, queue, paused));
                });
        // Communication by kind.
        Map<String, long[]> kinds = new LinkedHashMap<>();
        Map<String, long[]> collectives = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            FlowSpec t = job.get(i);
            if (t.kind() == FlowSpec.Kind.COMPUTE || finish[i] < 0) {
                continue;
            }
            String kind = kindOf(t);
            long[] k = kinds.computeIfAbsent(kind, x -> new long[] {0, 0, Long.MAX_VALUE, 0, 0});
            k[0]++;
            k[1] += t.bytes();
            k[2] = Math.min(k[2], start[i]);
            k[3] = Math.max(k[3], finish[i]);
            k[4] += finish[i] - start[i];
            if (t.label().contains(":") && !t.label().endsWith(":tp") && !t.label().endsWith(":pp")) {
                long[] c = collectives.computeIfAbsent(t.label(), x -> new long[] {Long.MAX_VALUE, 0});
                c[0] = Math.min(c[0], start[i]);
                c[1] = Math.max(c[1], finish[i]);
            }
        }
        List<CommResult> comm = new ArrayList<>();
        for (Map.Entry<String, long[]> e : kinds.entrySet()) {
            long[] k = e.getValue();
            comm.add(new CommResult(e.getKey(), (int) k[0], k[1], k[4], meanBusbw(e.getKey(), collectives, declared)));
        }
        double idle = step == 0 ? 0 : 1 - meanBusy / step;
        double tps = step == 0 || !completed ? 0 : tokens / (step / 1e12);
        return new Result(completed, step, compute, noComm, Math.max(0, step - noComm), Math.max(0, noComm - compute),
                idle, tps, cCompute, cNvlink, cNetwork, List.copyOf(held), List.copyOf(comm));
    }

    /** "tensor parallel (NVLink)", "pipeline", "data parallel", "expert all-to-all". */
    static String kindOf(FlowSpec t) {
        String l = t.label();
        if (l.endsWith(":tp")) {
            return "tensor parallel";
        }
        if (l.endsWith(":pp")) {
            return "pipeline";
        }
        if (l.contains("-ep")) {
            return "expert all-to-all";
        }
        if (l.contains("-dp-")) {
            return "data parallel";
        }
        return "other";
    }

    /** Mean nccl-tests bus bandwidth of the collectives of one kind (GB/s), from their span and declared size. */
    private static double meanBusbw(String kind, Map<String, long[]> spans, Map<String, NcclCollective> declared) {
        if (!kind.equals("data parallel") && !kind.equals("expert all-to-all")) {
            return 0;
        }
        double sum = 0;
        int count = 0;
        for (Map.Entry<String, long[]> e : spans.entrySet()) {
            NcclCollective c = declared.get(e.getKey());
            long span = e.getValue()[1] - e.getValue()[0];
            if (c == null || span <= 0 || !kindOf(new FlowSpec("a", "b", 1, 0, 0, e.getKey())).equals(kind)) {
                continue;
            }
            sum += c.bytes() / (span / 1e12) / 1e9 * c.op().busFactor(c.ranks().size());
            count++;
        }
        return count == 0 ? 0 : sum / count;
    }

    /**
     * The step's analysis as text, as {@code fabriclab simulate}, {@code compare} and the live view
     * say it: the job, then (if the step completed) step, compute, bubble, exposed communication,
     * idle share and tokens/s, each kind of communication, and the critical path.
     */
    public static String text(io.fabriclab.workload.TrainingJob job, Result a) {
        StringBuilder b = new StringBuilder();
        b.append(job.describe()).append(String.format(java.util.Locale.ROOT, ", compute %.1f us per micro-batch%n",
                job.computePsPerMicroBatch() / 1e6));
        if (!a.completed()) {
            b.append("  the step did not complete within the run\n");
            return b.toString();
        }
        b.append(String.format(java.util.Locale.ROOT, "  step %.3f ms: compute %.3f ms, pipeline bubble %.3f ms, exposed "
                        + "communication %.3f ms (%.1f %%); GPUs idle %.1f %%; %,.0f tokens/s%n",
                a.stepPs() / 1e9, a.computePs() / 1e9, a.bubblePs() / 1e9, a.exposedCommPs() / 1e9,
                100 * a.exposedShare(), 100 * a.gpuIdleShare(), a.tokensPerSecond()));
        for (CommResult c : a.communication()) {
            b.append(String.format(java.util.Locale.ROOT, "  %s: %d transfers, %.1f MB%s%n", c.kind(), c.transfers(),
                    c.bytes() / 1e6, c.meanBusbwGBps() > 0
                            ? String.format(java.util.Locale.ROOT, ", mean busbw %.2f GB/s", c.meanBusbwGBps()) : ""));
        }
        b.append(String.format(java.util.Locale.ROOT, "  critical path: compute %.3f ms, NVLink %.3f ms, network %.3f ms%n",
                a.criticalComputePs() / 1e9, a.criticalNvlinkPs() / 1e9, a.criticalNetworkPs() / 1e9));
        for (CriticalTransfer t : a.heldBy()) {
            b.append(String.format(java.util.Locale.ROOT, "    held by %s %s -> %s (%.1f MB): %.1f us%s%n", t.label(), t.src(),
                    t.dst(), t.bytes() / 1e6, t.chargedPs() / 1e6, t.port() == null ? ""
                            : String.format(java.util.Locale.ROOT, "; its busiest port %s (queue up to %.1f KB, paused %.1f us)",
                            t.port(), t.maxQueueBytes() / 1e3, t.pausedPs() / 1e6)));
        }
        return b.toString();
    }
}
