package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.fabriclab.workload.Collective;

/** Turns the simulator's counters into an immutable {@link SimResults}, in a deterministic order. */
final class ResultsBuilder {
    private final Simulator sim;

    ResultsBuilder(Simulator sim) {
        this.sim = sim;
    }

    SimResults build(SimResults.StopReason reason, long wallNanos) {
        long end = sim.now();
        Flow[] flows = sim.flows();
        EgressPort[] ports = sim.ports();

        List<SimResults.FlowResult> flowResults = new ArrayList<>(flows.length);
        List<Long> fcts = new ArrayList<>();
        double throughputSum = 0;
        long retransmitted = 0;
        long cnpsSent = 0;
        long cnpsReceived = 0;
        for (Flow f : flows) {
            long started = f.startedPs >= 0 ? f.startedPs : f.startPs;
            long fct = f.done ? f.finishPs - started : -1;
            double gbps = f.done && fct > 0 ? f.spec.bytes() * 8.0 / fct * 1000.0 : 0;
            if (f.done) {
                fcts.add(fct);
                throughputSum += gbps;
            }
            retransmitted += f.retransmittedBytes;
            cnpsSent += f.cnpsSent;
            cnpsReceived += f.rp.cnps();
            List<String> path = new ArrayList<>(f.forwardPath().length);
            for (int p : f.forwardPath()) {
                path.add(ports[p].ref());
            }
            long stall = f.stallPs + (f.inRecovery ? end - f.recoveryStartPs : 0);
            flowResults.add(new SimResults.FlowResult(f.id, f.spec.src(), f.spec.dst(), f.priority, f.spec.label(),
                    f.spec.bytes(), started, f.finishPs, fct, gbps, f.udpSourcePort, f.retransmittedPackets,
                    f.retransmittedBytes, f.naks, f.timeouts, stall, f.ceReceived, f.cnpsSent, f.rp.cnps(),
                    f.rp.cuts(), f.minRateBps / 1e9, f.rp.currentRateBps() / 1e9, path,
                    SimResults.Series.of(f.rateSeries, "Gb/s")));
        }

        List<SimResults.QueueResult> queues = new ArrayList<>();
        List<SimResults.PfcResult> pfc = new ArrayList<>();
        List<SimResults.LinkResult> links = new ArrayList<>();
        List<SimResults.DropResult> dropList = new ArrayList<>();
        long drops = 0;
        long headroomDrops = 0;
        long bufferDrops = 0;
        long watchdogDrops = 0;
        long linkDownDrops = 0;
        long marks = 0;
        long pausesSent = 0;
        long resumesSent = 0;
        long pausedTotal = 0;
        long storms = 0;
        long maxQueue = 0;
        String maxQueueName = null;
        for (EgressPort p : ports) {
            if (!p.touched) {
                continue;
            }
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                // Headroom overflow is charged to this port as an ingress (pfc, drops), not to its egress queue.
                long dropped = p.dropsBuffer[c] + p.dropsWatchdog[c] + p.dropsLinkDown[c];
                boolean used = p.cls(c, EgressPort.ENQ_PACKETS) > 0 || dropped > 0;
                if (used) {
                    double meanNs = p.cls(c, EgressPort.DEQ_PACKETS) == 0 ? 0
                            : p.cls(c, EgressPort.DEQ_LATENCY_SUM) / 1000.0 / p.cls(c, EgressPort.DEQ_PACKETS);
                    queues.add(new SimResults.QueueResult(p.ref(), p.peerPort.ref(), c, p.cls(c, EgressPort.MAX_QUEUE),
                            p.cls(c, EgressPort.ENQ_PACKETS), p.cls(c, EgressPort.ENQ_BYTES), p.ecnMarked[c], p.dropsBuffer[c],
                            0, p.dropsWatchdog[c], p.dropsLinkDown[c], p.firstDropPs[c], meanNs,
                            p.cls(c, EgressPort.DEQ_LATENCY_MAX) / 1000.0, SimResults.Series.of(p.depthSeries[c], "bytes")));
                    if (p.cls(c, EgressPort.MAX_QUEUE) > maxQueue) {
                        maxQueue = p.cls(c, EgressPort.MAX_QUEUE);
                        maxQueueName = p.ref() + " tc" + c;
                    }
                }
                drops += dropped + p.dropsHeadroom[c];
                addDrops(dropList, p, "egress", c, "buffer", p.dropsBuffer[c], p.firstDropPs[c]);
                addDrops(dropList, p, "ingress", c, "headroom-overflow", p.dropsHeadroom[c], p.firstHeadroomDropPs[c]);
                addDrops(dropList, p, "egress", c, "watchdog", p.dropsWatchdog[c], p.firstDropPs[c]);
                addDrops(dropList, p, "egress", c, "link-down", p.dropsLinkDown[c], p.firstDropPs[c]);
                linkDownDrops += p.dropsLinkDown[c];
                headroomDrops += p.dropsHeadroom[c];
                bufferDrops += p.dropsBuffer[c];
                watchdogDrops += p.dropsWatchdog[c];
                marks += p.ecnMarked[c];
                long paused = p.pausedPs[c];
                if (p.pauseStartPs[c] >= 0) {
                    paused += Math.min(p.cls(c, EgressPort.PAUSED_UNTIL), end) - p.pauseStartPs[c];
                }
                if (p.pauseFramesSent[c] + p.resumeFramesSent[c] + p.pauseFramesReceived[c] + p.watchdogStorms[c] > 0) {
                    pfc.add(new SimResults.PfcResult(p.ref(), c, p.pauseFramesSent[c], p.resumeFramesSent[c],
                            p.pauseFramesReceived[c], paused, p.cls(c, EgressPort.MAX_INGRESS),
                            p.isLossless(c) ? p.xoffBytes : 0, p.isLossless(c) ? p.headroomBytes : 0,
                            p.watchdogStorms[c], p.dropsHeadroom[c]));
                }
                pausesSent += p.pauseFramesSent[c];
                resumesSent += p.resumeFramesSent[c];
                pausedTotal += paused;
                storms += p.watchdogStorms[c];
            }
            // The time the wire carried bits within the run (a frame still on the wire at the end
            // counts up to the end) over the run's length.
            double util = end <= 0 ? 0 : (double) p.busyPsUntil(end) / end;
            links.add(new SimResults.LinkResult(p.ref(), p.peerPort.ref(), p.link.speedGbps(), p.txFrames,
                    p.txFrameBytes, util, SimResults.Series.of(p.utilizationSeries, "fraction")));
        }
        List<SimResults.NicResult> nics = new ArrayList<>();
        for (EgressPort p : sim.nicPorts()) {
            if (p.nic.cnpsSent + p.nic.cnpsReceived > 0) {
                nics.add(new SimResults.NicResult(p.ref(), p.nic.cnpsSent, p.nic.cnpsReceived));
            }
        }
        int[] flowsPerPort = new int[ports.length];
        for (Flow f : flows) {
            for (int i = 1; i < f.forwardPath().length - 1; i++) {
                flowsPerPort[f.forwardPath()[i]]++;
            }
        }
        List<SimResults.EcmpResult> ecmp = new ArrayList<>();
        for (EgressPort p : ports) {
            if (flowsPerPort[p.id] > 0 && !sim.routingPolicy().perPacket()) {
                ecmp.add(new SimResults.EcmpResult(p.port.device().id(), p.ref(), p.peerPort.ref(), flowsPerPort[p.id]));
            }
        }
        java.util.Set<String> ncclLabels = new java.util.HashSet<>();
        sim.ncclCollectives().forEach(c -> ncclLabels.add(c.label()));
        List<SimResults.CollectiveResult> collectives = new ArrayList<>(
                collectives(flows, sim.collectiveWorkloads(), end, sim.reportedElsewhere().or(ncclLabels::contains)));
        collectives.addAll(ncclCollectives(flows, sim.ncclCollectives(), sim.local, end));
        // Per-packet modes do not follow the flows' ECMP paths: only bytes describe their spread.
        List<SimResults.UplinkSpread> uplinks = uplinks(ports, sim.routingPolicy().perPacket() ? null : flowsPerPort);
        long[] sorted = fcts.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        SimResults.Summary summary = new SimResults.Summary(drops, headroomDrops, bufferDrops, watchdogDrops, linkDownDrops, marks,
                cnpsSent, cnpsReceived, pausesSent, resumesSent, pausedTotal, storms, retransmitted, maxQueue,
                maxQueueName, percentileUs(sorted, 0.50), percentileUs(sorted, 0.99),
                sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
                sorted.length == 0 ? 0 : throughputSum / sorted.length);
        double evps = wallNanos <= 0 ? 0 : sim.eventCount() * 1e9 / wallNanos;
        SimResults.RunInfo run = new SimResults.RunInfo(sim.config().seed(), reason, end, sim.eventCount(), wallNanos,
                evps, flows.length, flows.length - sim.flowsRemaining(), sim.maxPacketsInFlight(),
                sim.config().sampleIntervalPs(), sim.reroutes(), sim.routingPolicy().mode().jsonName());
        List<SimResults.DeadlockResult> deadlocks = new ArrayList<>();
        for (DeadlockDetector.Deadlock d : sim.deadlocksFound()) {
            deadlocks.add(new SimResults.DeadlockResult(d.detectedPs(), d.priority(), d.ports()));
        }
        List<SimResults.BufferResult> buffers = new ArrayList<>();
        for (SwitchState sw : sim.switchStates()) {
            long reserved = 0;
            for (EgressPort p : sw.egress) {
                reserved += Integer.bitCount(p.losslessMask) * p.headroomBytes;
            }
            buffers.add(new SimResults.BufferResult(sw.device.id(), sw.poolBytes, sw.maxOccupiedBytes, reserved,
                    sw.maxHeadroomBytes));
        }
        return new SimResults(run, summary, flowResults, queues, pfc, links, nics, ecmp, collectives, deadlocks, uplinks,
                sim.reactionLog().result(), buffers, dropList, sim.pfcLog().events(ports, end), sim.pfcLog().dropped(),
                sim.creditResults(end), uecResult(flows, ports),
                sim.ibcc == null ? null : sim.ibcc.results(flows, ports, end), localResult());
    }

    /** NVLink transfers and compute intervals (SimResults.LocalResult); null when the run had none. */
    private SimResults.LocalResult localResult() {
        LocalWork w = sim.local;
        if (w == null) {
            return null;
        }
        List<SimResults.TaskResult> tasks = new ArrayList<>(w.count);
        for (int i = 0; i < w.count; i++) {
            io.fabriclab.workload.FlowSpec s = w.specs[i];
            tasks.add(new SimResults.TaskResult(w.specIndex[i], s.kind().jsonName(), s.src(), s.dst(), s.label(), s.id(),
                    s.bytes(), s.kind() == io.fabriclab.workload.FlowSpec.Kind.COMPUTE ? s.delayPs() : 0, w.readyPs[i],
                    w.startedPs[i], w.finishPs[i]));
        }
        List<SimResults.GpuResult> gpus = new ArrayList<>();
        for (int g = 0; g < w.gpuCount(); g++) {
            if (w.gpuBusyPs[g] > 0) {
                gpus.add(new SimResults.GpuResult(w.gpuName(g), w.gpuBusyPs[g]));
            }
        }
        int[] flowTasks = new int[sim.flows().length];
        for (int f = 0; f < flowTasks.length; f++) {
            flowTasks[f] = sim.specIndexOfFlow(f);
        }
        return new SimResults.LocalResult(w.count - w.remaining, List.copyOf(tasks), List.copyOf(gpus),
                java.util.Arrays.stream(flowTasks).boxed().toList());
    }

    /**
     * NCCL collectives (workload.NcclCollective): their network flows and NVLink transfers together,
     * from the first to start to the last to finish; S and n as declared; no per-step list (the
     * steps of a hierarchical or tree algorithm are not one ring's).
     */
    private static List<SimResults.CollectiveResult> ncclCollectives(Flow[] flows,
            List<io.fabriclab.workload.NcclCollective> known, LocalWork local, long end) {
        List<SimResults.CollectiveResult> out = new ArrayList<>();
        if (known.isEmpty()) {
            return out;
        }
        java.util.Map<String, long[]> acc = new java.util.LinkedHashMap<>();
        for (io.fabriclab.workload.NcclCollective c : known) {
            // start, finish, all done (1/0), stall, retransmitted, channels
            acc.put(c.label(), new long[] {Long.MAX_VALUE, 0, 1, 0, 0});
        }
        for (Flow f : flows) {
            long[] a = acc.get(f.spec.label());
            if (a != null) {
                a[0] = Math.min(a[0], f.startedPs >= 0 ? f.startedPs : f.startPs);
                a[1] = Math.max(a[1], f.finishPs);
                a[2] &= f.done ? 1 : 0;
                a[3] = Math.max(a[3], f.stallPs + (f.inRecovery ? end - f.recoveryStartPs : 0));
                a[4] += f.retransmittedBytes;
            }
        }
        if (local != null) {
            for (int i = 0; i < local.count; i++) {
                long[] a = acc.get(local.specs[i].label());
                if (a != null) {
                    a[0] = Math.min(a[0], local.startedPs[i] >= 0 ? local.startedPs[i] : Long.MAX_VALUE);
                    a[1] = Math.max(a[1], local.finishPs[i]);
                    a[2] &= local.finishPs[i] >= 0 ? 1 : 0;
                }
            }
        }
        for (io.fabriclab.workload.NcclCollective c : known) {
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

    /** Ultra Ethernet's counts (SimResults.UecResult); null on other transports. */
    private SimResults.UecResult uecResult(Flow[] flows, EgressPort[] ports) {
        if (!(sim.nicTransport instanceof UecTransport u)) {
            return null;
        }
        long nacks = 0;
        long rtxPackets = 0;
        long rtxBytes = 0;
        long timeouts = 0;
        long decreases = 0;
        double minCwnd = Double.MAX_VALUE;
        for (Flow f : flows) {
            nacks += f.naks;
            rtxPackets += f.retransmittedPackets;
            rtxBytes += f.retransmittedBytes;
            timeouts += f.timeouts;
            UecTransport.State s = u.state(f.id);
            if (s != null) {
                decreases += s.cc.multiplicativeDecreases;
                minCwnd = Math.min(minCwnd, s.cc.minCwnd);
            }
        }
        List<SimResults.TrimResult> byPort = new ArrayList<>();
        for (EgressPort p : ports) {
            if (p.trimmed > 0) {
                byPort.add(new SimResults.TrimResult(p.ref(), p.trimmed));
            }
        }
        Trimming t = sim.trimming;
        return new SimResults.UecResult(t.trimmedPackets, t.trimmedPayloadBytes, u.nacksSent, nacks, rtxPackets, rtxBytes,
                timeouts, u.outOfOrderPackets, u.duplicatePackets, decreases,
                minCwnd == Double.MAX_VALUE ? 0 : (long) minCwnd, List.copyOf(byPort));
    }

    /**
     * One drop row when {@code count > 0}. {@code firstPs} is the port's first drop of that side
     * (egress causes share one first-drop time per queue).
     */
    private static void addDrops(List<SimResults.DropResult> out, EgressPort p, String side, int c, String cause,
                                 long count, long firstPs) {
        if (count > 0) {
            out.add(new SimResults.DropResult(p.ref(), side, c, cause, count, firstPs));
        }
    }

    /** Per switch, its uplinks (ports toward a higher-tier switch) that carried traffic, with flows and bytes. */
    private static List<SimResults.UplinkSpread> uplinks(EgressPort[] ports, int[] flowsPerPort) {
        java.util.Map<io.fabriclab.model.Device, List<EgressPort>> bySwitch = new java.util.LinkedHashMap<>();
        for (EgressPort p : ports) {
            var self = p.port.device();
            var peer = p.peerPort.device();
            if (p.sw != null && peer.role().isSwitch() && peer.role().tier() > self.role().tier()) {
                bySwitch.computeIfAbsent(self, k -> new ArrayList<>()).add(p);
            }
        }
        List<SimResults.UplinkSpread> out = new ArrayList<>();
        for (var e : bySwitch.entrySet()) {
            List<EgressPort> ups = e.getValue();
            long total = 0;
            long max = 0;
            for (EgressPort p : ups) {
                total += p.txFrameBytes;
                max = Math.max(max, p.txFrameBytes);
            }
            if (total == 0) {
                continue;
            }
            out.add(new SimResults.UplinkSpread(e.getKey().id(), ups.stream().map(EgressPort::ref).toList(),
                    flowsPerPort == null ? List.of() : ups.stream().map(p -> flowsPerPort[p.id]).toList(),
                    ups.stream().map(p -> p.txFrameBytes).toList(),
                    max / ((double) total / ups.size())));
        }
        return out;
    }

    /**
     * Collective results, from the flows labelled "KIND:NAME", in order of first appearance. When
     * the run knows the {@link Collective} behind a label, S is its declared size and steps are
     * reported; otherwise S = total bytes / (steps x ranks / n) and no steps.
     */
    private static List<SimResults.CollectiveResult> collectives(Flow[] flows, List<Collective> known, long end,
                                                                 java.util.function.Predicate<String> elsewhere) {
        java.util.Map<String, List<Flow>> groups = new java.util.LinkedHashMap<>();
        for (Flow f : flows) {
            String label = f.spec.label();
            int colon = label.indexOf(':');
            if (colon > 0 && Collective.Kind.fromJsonName(label.substring(0, colon)) != null && !elsewhere.test(label)) {
                groups.computeIfAbsent(label, k -> new ArrayList<>()).add(f);
            }
        }
        java.util.Map<String, Collective> byLabel = new java.util.HashMap<>();
        for (Collective c : known) {
            byLabel.put(c.label(), c);
        }
        List<SimResults.CollectiveResult> out = new ArrayList<>();
        for (var e : groups.entrySet()) {
            String label = e.getKey();
            Collective.Kind kind = Collective.Kind.fromJsonName(label.substring(0, label.indexOf(':')));
            List<Flow> fl = e.getValue();
            Collective meta = byLabel.get(label);
            if (meta != null && meta.flowCount() != fl.size()) {
                meta = null;
            }
            int n = meta != null ? meta.ranks().size() : (int) fl.stream().map(f -> f.spec.src()).distinct().count();
            long total = fl.stream().mapToLong(f -> f.spec.bytes()).sum();
            long s = meta != null ? meta.bytes() : n < 2 ? total : total / kind.stepsTimesRanksOverN(n);
            long start = fl.stream().mapToLong(f -> f.startPs).min().orElse(0);
            boolean done = fl.stream().allMatch(f -> f.done);
            long finish = done ? fl.stream().mapToLong(f -> f.finishPs).max().orElse(-1) : -1;
            long t = done ? finish - start : -1;
            // nccl-tests: algbw = S / t, busbw = algbw x factor (2(n-1)/n all-reduce, (n-1)/n others).
            double algbw = done && t > 0 ? s / (t / 1e12) / 1e9 : 0;
            double busbw = n < 2 ? 0 : algbw * kind.busFactor(n);
            long stall = 0;
            long retx = 0;
            for (Flow f : fl) {
                stall = Math.max(stall, f.stallPs + (f.inRecovery ? end - f.recoveryStartPs : 0));
                retx += f.retransmittedBytes;
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
                    Flow f = fl.get(i);
                    int st = meta.stepOf(i);
                    if (f.started) {
                        first[st] = Math.min(first[st], f.startedPs);
                    }
                    if (f.done) {
                        last[st] = Math.max(last[st], f.finishPs);
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

    /** Nearest-rank percentile, in microseconds; 0 when there is no value. */
    static double percentileUs(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }
}
