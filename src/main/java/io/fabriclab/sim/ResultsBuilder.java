package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;


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
                    p.txFrameBytes, util, 0, SimResults.Series.of(p.utilizationSeries, "fraction")));
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
        List<SimResults.CollectiveResult> collectives = CollectiveResults.of(flowView(flows, end), taskView(sim.local),
                sim.collectiveWorkloads(), sim.ncclCollectives(), sim.reportedElsewhere());
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
                sim.config().sampleIntervalPs(), sim.reroutes(), sim.routingPolicy().mode().jsonName(), Engine.PACKET.jsonName());
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

    /** The packet engine's flows as {@link CollectiveResults} reads them. */
    private static CollectiveResults.Flows flowView(Flow[] flows, long end) {
        return new CollectiveResults.Flows() {
            @Override
            public int count() {
                return flows.length;
            }

            @Override
            public String label(int i) {
                return flows[i].spec.label();
            }

            @Override
            public String src(int i) {
                return flows[i].spec.src();
            }

            @Override
            public long bytes(int i) {
                return flows[i].spec.bytes();
            }

            @Override
            public long specStartPs(int i) {
                return flows[i].startPs;
            }

            @Override
            public long startedPs(int i) {
                return flows[i].started ? flows[i].startedPs : -1;
            }

            @Override
            public long finishPs(int i) {
                return flows[i].done ? flows[i].finishPs : -1;
            }

            @Override
            public long stallPs(int i) {
                Flow f = flows[i];
                return f.stallPs + (f.inRecovery ? end - f.recoveryStartPs : 0);
            }

            @Override
            public long retransmittedBytes(int i) {
                return flows[i].retransmittedBytes;
            }
        };
    }

    /** The packet engine's NVLink and compute tasks as {@link CollectiveResults} reads them. */
    private static CollectiveResults.Tasks taskView(LocalWork w) {
        if (w == null) {
            return CollectiveResults.NO_TASKS;
        }
        return new CollectiveResults.Tasks() {
            @Override
            public int count() {
                return w.count;
            }

            @Override
            public String label(int i) {
                return w.specs[i].label();
            }

            @Override
            public long startedPs(int i) {
                return w.startedPs[i];
            }

            @Override
            public long finishPs(int i) {
                return w.finishPs[i];
            }
        };
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
