package io.fabriclab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimResults;

/**
 * How one simulation run went, judged the way a pre-deployment test is: FAIL when the lossless class
 * lost packets (headroom overflow or buffer drops on a PFC priority), a PFC deadlock formed, or flows
 * did not finish before the safety time limit; WARN for lossy drops, watchdog storms or
 * retransmissions; PASS otherwise. Link-down losses are expected when a run fails a link and do not
 * count against it. A flow-engine run (no packets: no pause, mark, drop or deadlock can show) is
 * "not simulated" for these checks, FAIL only when flows did not finish.
 */
public record RunOutcome(Status status, String evidence, List<String> reasons) {
    /** The results' name of the flow-level engine (sim.Engine.FLOW). */
    static final String FLOW_ENGINE = "flow";
    /** Why a completed flow-level run passes no lossless check. */
    static final String NOT_AT_PACKET_LEVEL = "flow engine: lossless behaviour not simulated; run it with --engine packet";

    static RunOutcome of(ReportRun run, Fabric fabric) {
        SimResults r = run.results();
        SimResults.Summary s = r.summary();
        SimResults.RunInfo info = r.run();
        QosResolver qos = run.qos(fabric);
        long losslessDrops = 0;
        for (SimResults.QueueResult q : r.queues()) {
            if (isLossless(fabric, qos, q.port(), q.trafficClass())) {
                losslessDrops += q.dropsBuffer() + q.dropsWatchdog();
            }
        }
        List<String> fail = new ArrayList<>();
        List<String> warn = new ArrayList<>();
        if (!r.deadlocks().isEmpty()) {
            fail.add("PFC deadlock on priority " + r.deadlocks().get(0).priority() + " at "
                    + Fmt.us(r.deadlocks().get(0).detectedPs()));
        }
        if (s.headroomOverflowDrops() > 0) {
            fail.add(Fmt.count(s.headroomOverflowDrops()) + " lossless packets lost to PFC headroom overflow");
        }
        if (losslessDrops > 0) {
            fail.add(Fmt.count(losslessDrops) + " packets dropped on a lossless priority");
        }
        if (info.stopReason() == SimResults.StopReason.TIME_LIMIT && info.flowsCompleted() < info.flows()) {
            fail.add((info.flows() - info.flowsCompleted()) + " of " + info.flows()
                    + " flows did not complete before the time limit");
        }
        long otherDrops = s.bufferDrops() + s.watchdogDrops() - losslessDrops;
        if (otherDrops > 0) {
            warn.add(Fmt.count(otherDrops) + " packets dropped on lossy classes");
        }
        if (s.watchdogStorms() > 0) {
            warn.add(s.watchdogStorms() + " PFC watchdog storms");
        }
        if (s.retransmittedBytes() > 0 && s.linkDownDrops() == 0) {
            warn.add(Fmt.bytes(s.retransmittedBytes()) + " retransmitted");
        }
        Status st = !fail.isEmpty() ? Status.FAIL : !warn.isEmpty() ? Status.WARN : Status.PASS;
        if (FLOW_ENGINE.equals(info.engine())) {
            // Rates without packets: no pause, mark, drop or deadlock can show, so none passes a check
            // of them; only flows left unfinished at the time limit count against the run.
            return new RunOutcome(fail.isEmpty() ? Status.NOT_SIMULATED : Status.FAIL, String.format(Locale.ROOT,
                    "%s/%s flows completed (%s after %s) on the flow engine, which does not model PFC, ECN, drops "
                            + "or deadlocks; FCT p99 %s",
                    Fmt.count(info.flowsCompleted()), Fmt.count(info.flows()), RunEnding.reason(info.stopReason()),
                    Fmt.us(info.simulatedPs()), RunEnding.fct(r, s.fctP99Us())),
                    flowReasons(r, fail));
        }
        String evidence = String.format(Locale.ROOT,
                "%s/%s flows completed (%s after %s); drops %s (link down %s); PFC paused %s; ECN marks %s; "
                        + "CNPs %s; FCT p99 %s",
                Fmt.count(info.flowsCompleted()), Fmt.count(info.flows()),
                RunEnding.reason(info.stopReason()), Fmt.us(info.simulatedPs()),
                Fmt.count(s.drops()), Fmt.count(s.linkDownDrops()), Fmt.us(s.pausedPs()), Fmt.count(s.ecnMarked()),
                Fmt.count(s.cnpsReceived()), RunEnding.fct(r, s.fctP99Us()));
        List<String> reasons = new ArrayList<>(fail);
        reasons.addAll(warn);
        return new RunOutcome(st, evidence, reasons);
    }

    /**
     * A flow run's reasons: what failed, or that it judges no lossless check; then the links the
     * flow engine names for a closer look with the packet engine (busiest, widest incast).
     */
    private static List<String> flowReasons(SimResults r, List<String> fail) {
        List<String> out = new ArrayList<>(fail.isEmpty() ? List.of(NOT_AT_PACKET_LEVEL) : fail);
        for (String link : io.fabriclab.sim.FlowEngine.packetLevelCandidates(r,
                io.fabriclab.sim.FlowEngine.PACKET_LEVEL_UTILIZATION, 3)) {
            out.add(LOOK_CLOSER + link);
        }
        return out;
    }

    /** Before a link a flow run names for the packet engine. */
    static final String LOOK_CLOSER = "look closer with --engine packet at ";

    /** Whether traffic class {@code tc} is PFC-protected at the ingress feeding this egress port. */
    static boolean isLossless(Fabric fabric, QosResolver qos, String portRef, int tc) {
        Port p = fabric.port(portRef);
        if (p == null) {
            return false;
        }
        QosProfile q = qos.qosFor(p);
        return q != null && q.pfc() != null && q.pfc().isLossless(tc);
    }
}
