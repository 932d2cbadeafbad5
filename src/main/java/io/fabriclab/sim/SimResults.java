package io.fabriclab.sim;

import java.util.List;

/**
 * Everything a run measured: run metadata, a summary, and per flow, queue, PFC port/priority,
 * link direction and NIC detail. Immutable; {@code io.ResultsJson} writes it.
 *
 * @param buffers          per switch, its shared pool and headroom: sizes and the largest occupancy seen
 * @param drops            every drop counted where it happened: port, side, priority and cause
 * @param pfcEvents        the PFC frames as they took effect, in time order, at most
 *                         {@link PfcEventLog#CAP} (10,000)
 * @param pfcEventsDropped PFC frames beyond the cap, counted but not listed
 * @param credits          InfiniBand runs: credit flow control per (port, VL); empty on the other transports
 * @param ultraEthernet    Ultra Ethernet runs: trims, NACKs, retransmissions ({@link UecResult}); null on the others
 * @param ibCongestionControl InfiniBand runs with congestion control on: FECN, BECN and CCTI
 *                         ({@link IbCongestionResult}); null on every other run
 */
public record SimResults(RunInfo run, Summary summary, List<FlowResult> flows, List<QueueResult> queues,
                         List<PfcResult> pfc, List<LinkResult> links, List<NicResult> nics, List<EcmpResult> ecmp,
                         List<CollectiveResult> collectives, List<DeadlockResult> deadlocks,
                         List<UplinkSpread> uplinks, DcqcnLog dcqcnReactions, List<BufferResult> buffers, List<DropResult> drops,
                         List<PfcEvent> pfcEvents, long pfcEventsDropped, List<CreditResult> credits,
                         UecResult ultraEthernet, IbCongestionResult ibCongestionControl, LocalResult local) {

    /** The collective of kind {@code kind} ("allreduce", ...) named {@code name}, or null. */
    public CollectiveResult collective(String kind, String name) {
        for (CollectiveResult c : collectives) {
            if (c.kind().equals(kind) && c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** When the last network flow or local task finished (ps); 0 when none did. */
    public long lastFinishPs() {
        long e = 0;
        for (FlowResult f : flows) {
            e = Math.max(e, f.finishPs());
        }
        if (local != null) {
            for (TaskResult t : local.tasks()) {
                e = Math.max(e, t.finishPs());
            }
        }
        return e;
    }

    /**
     * The tasks of a run that never touch a NIC (NVLink transfers and GPU compute; null when the run
     * had none): how many finished, each task (with its index in the workload's list), the time each
     * GPU computed, and the workload index of every network flow by flow id (so a task graph mixing
     * both can be read back in the workload's order).
     */
    public record LocalResult(int tasksCompleted, List<TaskResult> tasks, List<GpuResult> gpus,
                              List<Integer> flowTasks) {
    }

    /**
     * One NVLink transfer or compute interval: its index in the workload's list, kind ("nvlink" or
     * "compute"), GPUs, label and id, bytes (NVLink) or duration (compute), when all it waited for
     * had finished, when it started (a compute task may queue for its GPU) and finished (-1 if not).
     */
    public record TaskResult(int task, String kind, String src, String dst, String label, String id, long bytes,
                             long durationPs, long readyPs, long startPs, long finishPs) {
    }

    /** A GPU's time spent computing in the run. */
    public record GpuResult(String gpu, long computePs) {
    }

    /**
     * InfiniBand congestion control of a run (docs/model.md, InfiniBand congestion control): the
     * settings in force (threshold as set, 0-15, and the queue it means in bytes, -1 when 0 marks
     * nothing; marking rate; minimum packet size in credits; CCTI_Increase; CCTI_Timer in 1.024 us;
     * CCTI_Min; CCTI_Limit), then data packets the switches marked with FECN, FECN-marked packets
     * the destination HCAs received, ACKs they sent with BECN and BECNs the sources received, the
     * highest CCTI any flow reached, and the time flows spent at a CCTI above 0 (summed over flows;
     * a flow counts until every packet of it is acknowledged). Per switch port and VL the marks,
     * per flow that saw any of it (or starts above CCTI 0) its own counts.
     */
    public record IbCongestionResult(int threshold, long thresholdBytes, int markingRate, int packetSizeCredits,
                                     int cctiIncrease, int cctiTimer, int cctiMin, int cctiLimit, long fecnMarked,
                                     long fecnReceived, long becnsSent, long becnsReceived, int maxCcti,
                                     long cctiAboveZeroPs, List<FecnPortResult> fecnByPort,
                                     List<IbCcFlowResult> flows) {
    }

    /** FECN marks at one switch egress port and VL. */
    public record FecnPortResult(String port, int vl, long fecnMarked) {
    }

    /** One flow's congestion control: FECN-marked packets its responder received, BECNs its requester received, its highest and last CCTI, time above CCTI 0. */
    public record IbCcFlowResult(int flow, long fecnReceived, long becnsReceived, int maxCcti, int finalCcti,
                                 long cctiAboveZeroPs) {
    }

    /**
     * Ultra Ethernet's own counts (null on other transports): data packets the switches trimmed
     * to their headers and the payload bytes cut, NACKs the receivers sent for them, packets and
     * payload bytes the senders sent again, retransmission timeouts, data packets that arrived
     * ahead of a missing PSN and duplicates, and the smallest NSCC window of any flow (bytes).
     * With trimming and no loss elsewhere, {@code retransmittedPackets == trimmedPackets}
     * (docs/validation.md, Ultra Ethernet).
     */
    public record UecResult(long trimmedPackets, long trimmedPayloadBytes, long nacksSent, long nacksReceived,
                            long retransmittedPackets, long retransmittedBytes, long timeouts, long outOfOrderPackets,
                            long duplicatePackets, long nsccMultiplicativeDecreases, long minCwndBytes,
                            List<TrimResult> trimsByPort) {
    }

    /** Trimmed packets at one switch egress port. */
    public record TrimResult(String port, long trimmedPackets) {
    }

    /** Why the run stopped. */
    public enum StopReason { COMPLETED, DURATION_REACHED, TIME_LIMIT, NO_EVENTS, STOPPED }

    /**
     * @param wallNanos        wall-clock time of the event loop (the only field that differs between identical runs)
     * @param eventsPerSecond  events / wall time (also differs between runs)
     * @param engine           the engine that ran it: "packet" (every packet, PFC, ECN, congestion control) or
     *                         "flow" (max-min fair rates, no queues: {@link FlowEngine})
     */
    public record RunInfo(long seed, StopReason stopReason, long simulatedPs, long events, long wallNanos,
                          double eventsPerSecond, int flows, int flowsCompleted, int maxPacketsInFlight,
                          long sampleIntervalPs, int reroutes, String routing, String engine) {
    }

    public record Summary(long drops, long headroomOverflowDrops, long bufferDrops, long watchdogDrops, long linkDownDrops,
                          long ecnMarked, long cnpsSent, long cnpsReceived, long pauseFramesSent,
                          long resumeFramesSent, long pausedPs, long watchdogStorms, long retransmittedBytes,
                          long maxQueueBytes, String maxQueue, double fctP50Us, double fctP99Us,
                          double fctMaxUs, double meanThroughputGbps) {
    }

    /** A downsampled time series: each value covers {@code stride} samples of the run's interval. */
    public record Series(String unit, int stride, long[] timesPs, double[] values) {
        static Series of(TimeSeries ts, String unit) {
            return ts == null ? null : new Series(unit, ts.stride(), ts.timesPs(), ts.values());
        }
    }

    /**
     * @param finishPs     when the receiver had every byte in order; -1 if the flow did not complete
     * @param fctPs        flow completion time finish - start; -1 if not completed
     * @param stallPs      time spent recovering from losses (go-back-N until the lost data was re-acknowledged)
     * @param path         egress ports of the data path, source NIC first
     */
    public record FlowResult(int id, String src, String dst, int priority, String label, long bytes, long startPs,
                             long finishPs, long fctPs, double throughputGbps, int udpSourcePort,
                             long retransmittedPackets, long retransmittedBytes, long naks, long timeouts,
                             long stallPs, long ceMarkedReceived, long cnpsSent, long cnpsReceived, long rateCuts,
                             double minRateGbps, double finalRateGbps, List<String> path, Series rateGbps) {
    }

    /** One egress queue (port, traffic class). Latency is the time from enqueue to dequeue. */
    public record QueueResult(String port, String peer, int trafficClass, long maxBytes, long enqueuedPackets,
                              long enqueuedBytes, long ecnMarked, long dropsBuffer, long dropsHeadroomOverflow,
                              long dropsWatchdog, long dropsLinkDown, long firstDropPs, double meanLatencyNs, double maxLatencyNs,
                              Series depthBytes) {
    }

    /**
     * PFC of one port and priority. Sent frames are XOFF (including refreshes) and resumes from this
     * port's ingress; received frames and paused time are for this port's egress.
     */
    public record PfcResult(String port, int priority, long pauseFramesSent, long resumeFramesSent,
                            long pauseFramesReceived, long pausedPs, long maxIngressBytes, long xoffBytes,
                            long headroomBytes, long watchdogStorms, long headroomOverflowDrops) {
    }

    /**
     * One switch's memory: the shared pool, and the headroom reserved outside it (lossless priority
     * groups x headroom per group, over the switch's linked ports); the largest occupancy of each
     * seen in the run. {@code maxPoolBytes <= poolBytes} and headroom use stays within each group's
     * reservation by construction (docs/model.md, Switch buffer).
     */
    public record BufferResult(String device, long poolBytes, long maxPoolBytes, long headroomReservedBytes,
                               long maxHeadroomBytes) {
    }

    /**
     * Drops of one port, side, priority and cause, charged where they happened: {@code side}
     * "ingress" for a lossless packet refused by the headroom of the port it arrived on (cause
     * headroom-overflow), "egress" for the queue it was bound for or the wire it was on (buffer,
     * watchdog, link-down).
     */
    public record DropResult(String port, String side, int priority, String cause, long packets, long firstPs) {
    }

    /**
     * A PFC frame taking effect on egress {@code port} (sent by {@code from}, the peer's ingress):
     * priority, quanta (0 = resume) and how long this frame held the queue paused (until the next
     * PFC frame of that priority on that port, a resume, its expiry or the end of the run).
     */
    public record PfcEvent(long timePs, String port, String from, int priority, int quanta, long durationPs) {
    }

    /**
     * InfiniBand credit-based flow control of one port and virtual lane. As a receiver (packets
     * from the peer): the buffer it advertised and the most it held, both in whole 64-byte blocks
     * ({@code maxHeldBytes <= advertisedBytes} by construction). As a sender: the blocks it sent,
     * the time it held a packet ready that the peer's credits did not cover (credit-stalled, the
     * counterpart of PFC's paused time), and the flow-control packets it sent back to its peer.
     */
    public record CreditResult(String port, int vl, long advertisedBytes, long maxHeldBytes, long sentBytes,
                               long creditStalledPs, long fcPacketsSent) {
    }

    /**
     * One link direction: bytes on the wire (preamble and gap included) over the run. On a link
     * into a NIC, {@code incastDegree} is the most transfers that arrived over it at once (flow
     * engine; 0 on other links and in a packet run, whose queues, pauses and marks show an incast
     * themselves).
     */
    public record LinkResult(String from, String to, int speedGbps, long frames, long frameBytes,
                             double meanUtilization, int incastDegree, Series utilization) {
    }

    public record NicResult(String port, long cnpsSent, long cnpsReceived) {
    }

    /**
     * ECMP distribution: how many flows' data paths a switch egress port carries, for every
     * switch-to-switch port that carries at least one (hash collisions and polarization show here).
     */
    /**
     * A collective (flows labelled "KIND:NAME", kind allreduce, reducescatter, allgather or
     * alltoall): completion time from its first start to its last arrival, algorithm bandwidth S / t
     * and bus bandwidth (algbw x 2(n-1)/n for all-reduce, x (n-1)/n for the others) as nccl-tests
     * define them, in GB/s (10^9 bytes per second); S = n x chunk. Not complete: finishPs -1 and
     * bandwidths 0.
     */
    public record CollectiveResult(String name, String kind, int ranks, long bytes, long startPs, long finishPs,
                                   long timePs, double algbwGBps, double busbwGBps, int channels, long stallPs,
                                   long retransmittedBytes, List<StepResult> steps) {
    }

    /**
     * One step of a collective (all its channels): from the first flow of the step starting to the
     * last one's data arriving; {@code timePs} is the step's share of the completion time (its
     * finish minus the previous step's finish, or minus the collective's start for step 0).
     */
    public record StepResult(int step, long startPs, long finishPs, long timePs) {
    }

    /**
     * How a switch spread its traffic over its uplinks (egress ports toward a higher tier): flows
     * whose ECMP path uses each port (ECMP runs only; empty when packets choose their own next
     * hop), and bytes each carried. {@code maxOverMean} is the
     * busiest uplink's bytes over the mean (1.0 = perfectly even; k = everything on one of k).
     */
    public record UplinkSpread(String device, List<String> ports, List<Integer> flows, List<Long> bytes,
                               double maxOverMean) {
    }

    /**
     * A PFC deadlock seen during the run: egress queues of one priority, each paused continuously
     * beyond the threshold and waiting on another in the set (a cycle of waits), first seen at
     * {@code detectedPs}.
     */
    public record DeadlockResult(long detectedPs, int priority, List<String> ports) {
    }

    public record EcmpResult(String device, String port, String peer, int flows) {
    }

    /**
     * The DCQCN reaction log (bounded; see docs/format-scenario.md): the flows it covers, the CNPs
     * logged per flow at most, how many CNPs of DCQCN senders it left out, and the reactions in time
     * order.
     */
    public record DcqcnLog(List<Integer> flows, int maxPerFlow, long notLogged, List<DcqcnReaction> reactions) {
    }

    /**
     * One CNP at a reaction point: when it arrived, whether it cut the rate (a CNP within the minimum
     * cut interval of the last cut only updates alpha), the alpha it found (the one the cut used), the
     * current rate before and after, and the target rate after.
     */
    public record DcqcnReaction(int flow, long timePs, boolean cut, double alpha, double rateBeforeGbps,
                                double rateAfterGbps, double targetGbps) {
    }
}
