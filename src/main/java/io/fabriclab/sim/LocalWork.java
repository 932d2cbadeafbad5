package io.fabriclab.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.workload.FlowSpec;

/**
 * The tasks of a run that never touch a NIC (docs/model.md, Scale-up domain and compute): NVLink
 * transfers between GPUs of one server, at flow level, and GPU compute intervals. They take part
 * in the same dependency graph as the network flows: a task waits for flows and tasks, flows wait
 * for tasks.
 * <ul>
 * <li>NVLink: a transfer first waits its fixed latency ({@link FlowSpec#delayPs}, or one hop of
 * the server's {@link ScaleUp}); then its bytes move at a rate shared max-min fair
 * ({@link MaxMinFair}) with the server's other active transfers, each GPU's NVLink sending at most
 * the domain's bandwidth and receiving at most the same, NVSwitch itself non-blocking. Rates are
 * recomputed whenever a transfer of that server starts or ends (event-driven).</li>
 * <li>Compute: a GPU runs one compute task at a time, in the order they become ready; the task
 * holds the GPU for its duration. Communication does not slow compute (NCCL's kernels' use of the
 * GPU's SMs is not modelled).</li>
 * </ul>
 */
final class LocalWork {
    /** A flow waiting for a local task lost one dependency ({@link Simulator#flowDependencyDone}). */
    private final java.util.function.Consumer<Flow> flowDependencyDone;
    private final EventQueue events;
    final int count;
    final FlowSpec[] specs;
    /** Index of each task in the workload's list (flows and tasks together). */
    final int[] specIndex;
    private final int[] server;
    private final int[] srcGpu;
    private final int[] dstGpu;
    /** Global GPU index (server's first GPU + local index) of a compute task. */
    private final int[] gpu;
    private final long[] latencyPs;
    final int[] waitingFor;
    private final int[][] taskDependents;
    private final int[] taskDependentCount;
    private final Flow[][] flowDependents;
    private final int[] flowDependentCount;
    final long[] readyPs;
    final long[] startedPs;
    final long[] finishPs;
    int remaining;

    // NVLink state per server.
    private final List<Device> servers = new ArrayList<>();
    private final ScaleUp[] domain;
    private final int[] gpusOf;
    private final List<List<Integer>> active = new ArrayList<>();
    private final int[] version;
    private final long[] lastUpdatePs;
    private final double[] left;
    private final double[] rate;
    /** Bytes moved over NVLink by finished transfers, per server. */
    final long[] nvlinkBytes;

    // Compute state per GPU.
    private final boolean[] gpuBusy;
    private final List<ArrayDeque<Integer>> gpuQueue = new ArrayList<>();
    final long[] gpuBusyPs;
    private final String[] gpuName;

    LocalWork(java.util.function.Consumer<Flow> flowDependencyDone, EventQueue events, Fabric fabric, List<FlowSpec> local, int[] specIndex) {
        this.flowDependencyDone = flowDependencyDone;
        this.events = events;
        this.count = local.size();
        this.specs = local.toArray(new FlowSpec[0]);
        this.specIndex = specIndex;
        Map<Device, Integer> serverIndex = new HashMap<>();
        List<Integer> firstGpu = new ArrayList<>();
        int gpus = 0;
        server = new int[count];
        srcGpu = new int[count];
        dstGpu = new int[count];
        gpu = new int[count];
        latencyPs = new long[count];
        // First pass: the servers the tasks use.
        for (int i = 0; i < count; i++) {
            FlowSpec s = specs[i];
            Device d = gpuDevice(fabric, s.src(), i, "src");
            Device e = gpuDevice(fabric, s.dst(), i, "dst");
            if (d != e) {
                throw new IllegalArgumentException("task " + specIndex[i] + ": " + s.kind().jsonName() + " between "
                        + s.src() + " and " + s.dst() + ": both GPUs must be in one server (between servers use the NICs)");
            }
            Integer si = serverIndex.get(d);
            if (si == null) {
                si = servers.size();
                serverIndex.put(d, si);
                servers.add(d);
                firstGpu.add(gpus);
                gpus += d.gpus();
            }
            server[i] = si;
            srcGpu[i] = gpuIndex(d, s.src(), i);
            dstGpu[i] = gpuIndex(d, s.dst(), i);
            gpu[i] = firstGpu.get(si) + srcGpu[i];
            if (s.kind() == FlowSpec.Kind.NVLINK && srcGpu[i] == dstGpu[i]) {
                throw new IllegalArgumentException("task " + specIndex[i] + ": NVLink transfer from " + s.src()
                        + " to itself");
            }
        }
        int n = servers.size();
        domain = new ScaleUp[n];
        gpusOf = new int[n];
        version = new int[n];
        lastUpdatePs = new long[n];
        nvlinkBytes = new long[n];
        for (int s = 0; s < n; s++) {
            domain[s] = servers.get(s).scaleUpOrDefault();
            gpusOf[s] = servers.get(s).gpus();
            active.add(new ArrayList<>());
        }
        for (int i = 0; i < count; i++) {
            latencyPs[i] = specs[i].kind() == FlowSpec.Kind.NVLINK && specs[i].delayPs() == 0
                    ? domain[server[i]].latencyPs() : specs[i].delayPs();
        }
        left = new double[count];
        rate = new double[count];
        gpuBusy = new boolean[gpus];
        gpuBusyPs = new long[gpus];
        gpuName = new String[gpus];
        for (int g = 0; g < gpus; g++) {
            gpuQueue.add(null);
        }
        for (int s = 0; s < n; s++) {
            for (int k = 0; k < gpusOf[s]; k++) {
                gpuName[firstGpu.get(s) + k] = servers.get(s).id() + ":gpu" + k;
            }
        }
        waitingFor = new int[count];
        taskDependents = new int[count][];
        taskDependentCount = new int[count];
        flowDependents = new Flow[count][];
        flowDependentCount = new int[count];
        readyPs = new long[count];
        startedPs = new long[count];
        finishPs = new long[count];
        Arrays.fill(readyPs, -1);
        Arrays.fill(startedPs, -1);
        Arrays.fill(finishPs, -1);
        remaining = count;
    }

    /** The server of GPU reference "server:gpuK", or an error naming the task. */
    static Device gpuDevice(Fabric fabric, String ref, int task, String which) {
        int c = ref.lastIndexOf(':');
        Device d = c > 0 ? fabric.device(ref.substring(0, c)) : null;
        if (d == null || !ref.startsWith("gpu", c + 1)) {
            throw new IllegalArgumentException("task " + task + ": " + which + " GPU '" + ref
                    + "' not found (use server:gpuK, K from 0 to the server's GPUs - 1)");
        }
        if (d.role() != DeviceRole.SERVER) {
            throw new IllegalArgumentException("task " + task + ": " + which + " '" + ref + "' is on a switch, not a GPU server");
        }
        return d;
    }

    static int gpuIndex(Device d, String ref, int task) {
        String k = ref.substring(ref.lastIndexOf(':') + 4);
        int g;
        try {
            g = Integer.parseInt(k);
        } catch (NumberFormatException e) {
            g = -1;
        }
        if (g < 0 || g >= d.gpus()) {
            throw new IllegalArgumentException("task " + task + ": GPU '" + ref + "' not found: " + d.id() + " has "
                    + d.gpus() + " GPUs (gpu0-gpu" + (d.gpus() - 1) + ")");
        }
        return g;
    }

    /** NVLink bytes each server's GPUs have sent by {@code now}, transfers in progress as far as they got. */
    io.fabriclab.sim.SimSnapshot.ScaleUpActivity activity(long now) {
        List<String> ids = new ArrayList<>(servers.size());
        long[] total = new long[servers.size()];
        for (int s = 0; s < servers.size(); s++) {
            ids.add(servers.get(s).id());
            double moved = nvlinkBytes[s];
            long dt = now - lastUpdatePs[s];
            for (int t : active.get(s)) {
                moved += specs[t].bytes() - Math.max(0, left[t] - rate[t] * dt);
            }
            total[s] = (long) moved;
        }
        return new io.fabriclab.sim.SimSnapshot.ScaleUpActivity(List.copyOf(ids), total);
    }

    String gpuName(int g) {
        return gpuName[g];
    }

    int gpuCount() {
        return gpuName.length;
    }

    void addTaskDependent(int task, int dependent) {
        if (taskDependents[task] == null) {
            taskDependents[task] = new int[2];
        } else if (taskDependentCount[task] == taskDependents[task].length) {
            taskDependents[task] = Arrays.copyOf(taskDependents[task], taskDependentCount[task] * 2);
        }
        taskDependents[task][taskDependentCount[task]++] = dependent;
        waitingFor[dependent]++;
    }

    void addFlowDependent(int task, Flow f) {
        if (flowDependents[task] == null) {
            flowDependents[task] = new Flow[2];
        } else if (flowDependentCount[task] == flowDependents[task].length) {
            flowDependents[task] = Arrays.copyOf(flowDependents[task], flowDependentCount[task] * 2);
        }
        flowDependents[task][flowDependentCount[task]++] = f;
        f.waitingFor++;
    }

    /** Schedules the tasks that wait for nothing (at the run's start). */
    void scheduleInitial() {
        for (int i = 0; i < count; i++) {
            if (waitingFor[i] == 0) {
                events.push(specs[i].startPs(), Simulator.EV_TASK_READY, i, 0);
            }
        }
    }

    /** A task's last dependency finished at {@code now}. */
    void dependencyDone(int task, long now) {
        if (--waitingFor[task] == 0) {
            events.push(Math.max(now, specs[task].startPs()), Simulator.EV_TASK_READY, task, 0);
        }
    }

    /** {@link Simulator#EV_TASK_READY}. */
    void ready(int task, long now) {
        readyPs[task] = now;
        if (specs[task].kind() == FlowSpec.Kind.COMPUTE) {
            int g = gpu[task];
            if (gpuBusy[g]) {
                ArrayDeque<Integer> q = gpuQueue.get(g);
                if (q == null) {
                    q = new ArrayDeque<>();
                    gpuQueue.set(g, q);
                }
                q.add(task);
            } else {
                startCompute(task, now);
            }
        } else {
            startedPs[task] = now;
            events.push(now + latencyPs[task], Simulator.EV_NVLINK_ACTIVE, task, 0);
        }
    }

    private void startCompute(int task, long now) {
        gpuBusy[gpu[task]] = true;
        startedPs[task] = now;
        events.push(now + specs[task].delayPs(), Simulator.EV_TASK_DONE, task, 0);
    }

    /** {@link Simulator#EV_TASK_DONE}: a compute task ends. */
    void computeDone(int task, long now) {
        int g = gpu[task];
        gpuBusy[g] = false;
        gpuBusyPs[g] += now - startedPs[task];
        finish(task, now);
        ArrayDeque<Integer> q = gpuQueue.get(g);
        if (q != null && !q.isEmpty()) {
            startCompute(q.poll(), now);
        }
    }

    /** {@link Simulator#EV_NVLINK_ACTIVE}: a transfer's latency is over; its bytes start to move. */
    void nvlinkActive(int task, long now) {
        int s = server[task];
        advance(s, now);
        left[task] = specs[task].bytes();
        active.get(s).add(task);
        reschedule(s, now);
    }

    /** {@link Simulator#EV_NVLINK_NEXT}: the earliest transfer of server {@code s} should be through. */
    void nvlinkNext(int s, int ver, long now) {
        if (ver != version[s]) {
            return;
        }
        advance(s, now);
        reschedule(s, now);
    }

    /** Moves every active transfer of server {@code s} on to {@code now}; finishes those that are through. */
    private void advance(int s, long now) {
        long dt = now - lastUpdatePs[s];
        lastUpdatePs[s] = now;
        List<Integer> a = active.get(s);
        if (a.isEmpty()) {
            return;
        }
        List<Integer> done = null;
        for (int k = 0; k < a.size(); k++) {
            int t = a.get(k);
            left[t] -= rate[t] * dt;
            // Through within a picosecond's worth of bytes (completion times are rounded up to whole ps).
            if (left[t] <= Math.max(rate[t], 1e-9)) {
                if (done == null) {
                    done = new ArrayList<>();
                }
                done.add(t);
            }
        }
        if (done != null) {
            a.removeAll(done);
            for (int t : done) {
                nvlinkBytes[s] += specs[t].bytes();
                finish(t, now);
            }
        }
    }

    /** New max-min rates for server {@code s} and the event for its next completion. */
    private void reschedule(int s, long now) {
        List<Integer> a = active.get(s);
        version[s]++;
        if (a.isEmpty()) {
            return;
        }
        int g = gpusOf[s];
        double cap = domain[s].bytesPerPs();
        double[] capacity = new double[2 * g];
        Arrays.fill(capacity, cap);
        int[][] uses = new int[a.size()][];
        for (int k = 0; k < a.size(); k++) {
            int t = a.get(k);
            uses[k] = new int[] {srcGpu[t], g + dstGpu[t]};
        }
        double[] r = MaxMinFair.rates(capacity, uses);
        double soonest = Double.POSITIVE_INFINITY;
        for (int k = 0; k < a.size(); k++) {
            int t = a.get(k);
            rate[t] = r[k];
            soonest = Math.min(soonest, left[t] / r[k]);
        }
        events.push(now + Math.max(1, (long) Math.ceil(soonest)), Simulator.EV_NVLINK_NEXT, s, version[s]);
    }

    private void finish(int task, long now) {
        finishPs[task] = now;
        remaining--;
        for (int i = 0; i < taskDependentCount[task]; i++) {
            dependencyDone(taskDependents[task][i], now);
        }
        for (int i = 0; i < flowDependentCount[task]; i++) {
            flowDependencyDone.accept(flowDependents[task][i]);
        }
    }
}
