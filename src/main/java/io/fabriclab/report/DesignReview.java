package io.fabriclab.report;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.NicPairClass;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.FailureImpact;
import io.fabriclab.topology.Finding;
import io.fabriclab.topology.HeadroomCalculator;

/**
 * The content of a design review, worked out once and then written as HTML or PDF: the static
 * analysis ({@link FabricAnalysis}, the same numbers `fabriclab analyze` prints), the deadlock check
 * under failures, each simulation run's outcome, the verdict's checks, the findings and the
 * validation checklist.
 */
public record DesignReview(ReportInput input, FabricAnalysis analysis, FailureDeadlocks failureDeadlocks,
                           Map<ReportRun, RunOutcome> outcomes, List<Check> checks, List<ReviewFinding> findings,
                           ValidationChecklist checklist) {

    /** Progress of a long report: fraction 0..1 and what is being done. */
    @FunctionalInterface
    public interface Progress {
        void update(double fraction, String message);

        Progress NONE = (f, m) -> { };
    }

    public static DesignReview build(ReportInput in, Progress progress) {
        Fabric fabric = in.fabric();
        progress.update(0.02, "analysing " + fabric.name());
        FabricAnalysis a = FabricAnalysis.run(fabric, in.options());
        progress.update(0.35, "deadlock check under failures");
        FailureDeadlocks fd = FailureDeadlocks.of(fabric, a);
        progress.update(0.5, "judging simulation runs");
        Map<ReportRun, RunOutcome> outcomes = new IdentityHashMap<>();
        for (ReportRun r : in.runs()) {
            outcomes.put(r, RunOutcome.of(r, fabric));
        }
        ValidationChecklist checklist = ValidationChecklist.of(fabric, in.runs(), outcomes);
        List<Check> checks = checks(fabric, a, fd, in.runs(), outcomes, checklist);
        List<ReviewFinding> findings = findings(a, fd, in.runs(), outcomes);
        return new DesignReview(in, a, fd, outcomes, checks, findings, checklist);
    }

    public long count(Status s) {
        return checks.stream().filter(c -> c.status() == s).count();
    }

    /** The overall verdict: the worst check. */
    public Status verdict() {
        Status v = Status.PASS;
        for (Check c : checks) {
            v = v.worse(c.status() == Status.NOT_SIMULATED ? Status.WARN : c.status());
        }
        return v;
    }

    /**
     * The cover's words for the verdict, never contradicting the counts beside them: "not ready" (a check
     * failed), "ready with warnings" (none failed, at least one warning), "ready pending simulation" (no
     * failure or warning, but checklist items no run exercised), "ready" (everything passed).
     */
    public String verdictWord() {
        if (count(Status.FAIL) > 0) {
            return "not ready";
        }
        if (count(Status.WARN) > 0) {
            return "ready with warnings";
        }
        return count(Status.NOT_SIMULATED) > 0 ? "ready pending simulation" : "ready";
    }

    /** The counts behind the verdict, those that are zero left out (passed always shown): "12 passed, 1 warning". */
    public String tally() {
        List<String> parts = new ArrayList<>();
        parts.add(count(Status.PASS) + " passed");
        long w = count(Status.WARN);
        long f = count(Status.FAIL);
        long n = count(Status.NOT_SIMULATED);
        if (w > 0) {
            parts.add(w + (w == 1 ? " warning" : " warnings"));
        }
        if (f > 0) {
            parts.add(f + (f == 1 ? " failure" : " failures"));
        }
        if (n > 0) {
            parts.add(n + " not simulated");
        }
        return String.join(", ", parts);
    }

    private static List<Check> checks(Fabric fabric, FabricAnalysis a, FailureDeadlocks fd, List<ReportRun> runs,
                                      Map<ReportRun, RunOutcome> outcomes, ValidationChecklist checklist) {
        List<Check> out = new ArrayList<>();
        EcmpPathCounter.Summary all = a.ecmp().all();
        out.add(new Check("Topology", "Every NIC reaches every other NIC",
                all.unreachablePairs() == 0 ? Status.PASS : Status.FAIL,
                Fmt.count(all.nicPairs()) + " NIC pairs, " + Fmt.count(all.unreachablePairs()) + " unreachable"));
        long minInter = Long.MAX_VALUE;
        for (Map.Entry<NicPairClass, EcmpPathCounter.Summary> e : a.ecmp().byClass().entrySet()) {
            if (e.getKey() != NicPairClass.SAME_SWITCH && e.getValue().nicPairs() > 0) {
                minInter = Math.min(minInter, e.getValue().min());
            }
        }
        if (minInter != Long.MAX_VALUE) {
            out.add(new Check("Topology", "At least two ECMP paths between NICs on different switches",
                    minInter >= 2 ? Status.PASS : Status.WARN,
                    "fewest equal-cost paths between NICs on different switches: " + minInter + "; mean over all pairs "
                            + Fmt.num(all.mean(), 1)));
        }
        var worst = a.oversubscription().worstLeaf();
        if (worst != null) {
            out.add(new Check("Topology", "Leaves non-blocking (downlink : uplink at most 1:1)",
                    worst.ratio() <= 1.0 + 1e-9 ? Status.PASS : Status.WARN,
                    "worst leaf " + worst.deviceId() + " " + worst.label() + " (" + worst.downGbps() + " Gb/s down, "
                            + worst.upGbps() + " Gb/s up)"));
        }
        double bis = a.bisection().ratio();
        out.add(new Check("Topology", "Full bisection bandwidth",
                bis >= 0.999 ? Status.PASS : bis >= 0.5 ? Status.WARN : Status.FAIL,
                Fmt.num(a.bisection().bandwidthGbps(), 0) + " of " + Fmt.num(a.bisection().idealGbps(), 0) + " Gb/s ("
                        + Fmt.percent(bis) + ")"));
        if (a.failureImpact() != null) {
            long cutting = a.failureImpact().items().stream()
                    .filter(i -> i.kind() == FailureImpact.Kind.LINK && i.nicPairsDisconnected() > 0).count();
            long links = a.failureImpact().items().stream().filter(i -> i.kind() == FailureImpact.Kind.LINK).count();
            out.add(new Check("Resilience", "No single inter-switch link failure disconnects NICs",
                    cutting == 0 ? Status.PASS : Status.FAIL,
                    Fmt.count(links) + " inter-switch links failed one at a time; " + cutting + " disconnect NIC pairs"));
        }
        long shortPorts = a.headroom().stream().filter(HeadroomCalculator.PortHeadroom::shortfall).count();
        if (!a.headroom().isEmpty()) {
            HeadroomCalculator.PortHeadroom w = a.headroom().stream()
                    .min(java.util.Comparator.comparingLong(HeadroomCalculator.PortHeadroom::marginBytes)).orElseThrow();
            List<String> extrapolated = a.headroom().stream().filter(h -> h.required().extrapolated())
                    .map(h -> h.required().speedGbps() + "G").distinct().toList();
            out.add(new Check("QoS", "PFC headroom covers the worst case on every lossless port",
                    shortPorts == 0 ? Status.PASS : Status.FAIL,
                    Fmt.count(a.headroom().size()) + " ports checked, " + Fmt.count(shortPorts) + " short; "
                            + (shortPorts > 0 ? "worst " : "smallest margin ") + w.port() + " needs "
                            + Fmt.count(w.required().totalBytes()) + " B (interface " + Fmt.count(w.required().interfaceBytes())
                            + " B), has " + Fmt.count(w.configuredBytes()) + " B"
                            + (extrapolated.isEmpty() ? "" : "; interface delay extrapolated at " + String.join(", ", extrapolated))));
        } else {
            out.add(new Check("QoS", "PFC headroom covers the worst case on every lossless port", Status.WARN,
                    "no port has a lossless priority: RoCEv2 runs without PFC"));
        }
        List<String> ecnLate = new ArrayList<>();
        for (QosProfile q : fabric.qosProfiles().values()) {
            if (q.pfc() == null || !q.pfc().enabled()) {
                continue;
            }
            for (int p : q.pfc().priorities()) {
                WredEcn curve = q.ecn() == null ? null : q.ecn().forClass(p);
                if (curve == null || curve.kminBytes() >= q.pfc().xoffBytes()) {
                    ecnLate.add(q.name() + " priority " + p + (curve == null ? " (no ECN)"
                            : " (Kmin " + Fmt.count(curve.kminBytes()) + " B >= XOFF " + Fmt.count(q.pfc().xoffBytes()) + " B)"));
                }
            }
        }
        out.add(new Check("QoS", "ECN marks before PFC pauses (Kmin below XOFF on lossless priorities)",
                ecnLate.isEmpty() ? Status.PASS : Status.WARN,
                ecnLate.isEmpty() ? "every lossless priority has an ECN curve starting below its XOFF threshold"
                        : String.join("; ", ecnLate)));
        DeadlockCheck.Result dl = a.deadlock();
        out.add(new Check("Deadlock", a.failure() == null ? "No cyclic buffer dependency as designed"
                : "No cyclic buffer dependency after failure of " + a.failure().spec(),
                dl.deadlockFree() ? Status.PASS : Status.FAIL,
                Fmt.count(dl.dependencies()) + " buffer dependencies on priorities " + dl.priorities() + "; "
                        + (dl.deadlockFree() ? "no cycle" : dl.cycles().size() + " cycle(s)")));
        List<FailureDeadlocks.Case> bad = fd.deadlocking();
        out.add(new Check("Deadlock", "No cyclic buffer dependency after a single failure",
                bad.isEmpty() ? Status.PASS : Status.FAIL,
                fd.checked().size() + (fd.exhaustive() ? " failures checked (every inter-switch link and switch)"
                        : " of " + fd.candidates() + " possible failures checked (the worst ranked)")
                        + (bad.isEmpty() ? "; none closes a cycle" : "; cycle after failure of " + bad.get(0).failed()
                        + (bad.size() > 1 ? " and " + (bad.size() - 1) + " more" : ""))));
        long errors = a.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).count();
        long warnings = a.findings().stream().filter(f -> f.severity() == Finding.Severity.WARNING).count();
        long infos = a.findings().size() - errors - warnings;
        out.add(new Check("Design rules", "Lint: no error-level finding",
                errors > 0 ? Status.FAIL : warnings > 0 ? Status.WARN : Status.PASS,
                errors + " errors, " + warnings + " warnings, " + infos + " notes"));
        out.add(new Check("Cost", "Bill of materials fully priced",
                a.billOfMaterials().complete() ? Status.PASS : Status.WARN,
                a.billOfMaterials().complete() ? "total " + a.billOfMaterials().currency() + " "
                        + Fmt.num(a.billOfMaterials().total().doubleValue(), 0)
                        : "no price for " + String.join(", ", a.billOfMaterials().unpriced())));
        for (ReportRun r : runs) {
            RunOutcome o = outcomes.get(r);
            out.add(new Check("Simulation", r.label(), o.status(),
                    (o.reasons().isEmpty() ? "" : String.join("; ", o.reasons()) + ". ") + o.evidence()));
        }
        long notSimulated = checklist.items().stream().filter(i -> i.status() == Status.NOT_SIMULATED).count();
        out.add(new Check("Validation", "Pre-deployment checklist covered by simulation",
                notSimulated == 0 ? Status.PASS : Status.NOT_SIMULATED,
                (checklist.items().size() - notSimulated) + " of " + checklist.items().size() + " items simulated"
                        + (notSimulated == 0 ? "" : "; not simulated: " + String.join(", ", checklist.items().stream()
                        .filter(i -> i.status() == Status.NOT_SIMULATED).map(i -> i.kind().title()).toList()))));
        return out;
    }

    private static List<ReviewFinding> findings(FabricAnalysis a, FailureDeadlocks fd, List<ReportRun> runs,
                                                Map<ReportRun, RunOutcome> outcomes) {
        List<ReviewFinding> out = new ArrayList<>();
        // Many findings of one kind (e.g. 32 single-homed servers) become one row with a count.
        Map<String, List<Finding>> byCode = new LinkedHashMap<>();
        for (Finding f : a.findings()) {
            byCode.computeIfAbsent(f.severity() + "/" + f.code(), k -> new ArrayList<>()).add(f);
        }
        for (List<Finding> group : byCode.values()) {
            if (group.size() > 3) {
                Finding f = group.get(0);
                out.add(new ReviewFinding(f.severity(), f.code(), f.subject() + " and " + (group.size() - 1) + " more",
                        f.message(), f.fix(), "static analysis", group.size()));
            } else {
                for (Finding f : group) {
                    out.add(new ReviewFinding(f.severity(), f.code(), f.subject(), f.message(), f.fix(), "static analysis", 1));
                }
            }
        }
        for (FailureDeadlocks.Case c : fd.deadlocking()) {
            if (a.failure() != null && c.failed().equals(a.failure().spec())) {
                continue; // already a DEADLOCK_CYCLE finding of the analysis
            }
            DeadlockCheck.Cycle cy = c.result().cycles().get(0);
            out.add(new ReviewFinding(Finding.Severity.ERROR, "DEADLOCK_AFTER_FAILURE", c.failed(),
                    "after failure of " + c.failed() + ", priority " + cy.priority() + " has a cyclic buffer dependency through "
                            + String.join(" > ", cy.switches()) + " (" + cy.queues().size() + " ingress queues)",
                    "route up-down only (no bounce paths through a lower tier after a failure), or enable the PFC "
                            + "watchdog so a deadlock is broken; " + "dual-home the leaf whose failure creates the bounce",
                    "deadlock check under failures", 1));
        }
        for (ReportRun r : runs) {
            RunOutcome o = outcomes.get(r);
            var s = r.results().summary();
            for (String reason : o.reasons()) {
                if (reason.equals(RunOutcome.NOT_AT_PACKET_LEVEL)) {
                    out.add(new ReviewFinding(Finding.Severity.INFO, "SIM_FLOW_LEVEL", r.label(),
                            reason + " (" + o.evidence() + ")",
                            "run the same scenario with --engine packet to judge PFC, ECN, drops and deadlocks",
                            "simulation", 1));
                    continue;
                }
                if (reason.startsWith(RunOutcome.LOOK_CLOSER)) {
                    out.add(new ReviewFinding(Finding.Severity.WARNING, "SIM_LOOK_CLOSER", r.label(),
                            "the flow engine found " + reason.substring(RunOutcome.LOOK_CLOSER.length())
                                    + ": where queues, pauses and marks would be, which it does not model",
                            "run the scenario with --engine packet (or the link's part of it) and read that link's "
                                    + "queue, pauses and marks",
                            "simulation", 1));
                    continue;
                }
                boolean error = o.status() == Status.FAIL && !reason.contains("lossy") && !reason.contains("retransmitted")
                        && !reason.contains("watchdog");
                out.add(new ReviewFinding(error ? Finding.Severity.ERROR : Finding.Severity.WARNING, runCode(reason),
                        r.label(), reason + " (" + o.evidence() + ")", recommendation(reason), "simulation", 1));
            }
            if (s.pausedPs() > 0 && s.ecnMarked() == 0 && s.pauseFramesSent() > 0) {
                out.add(new ReviewFinding(Finding.Severity.WARNING, "ECN_NEVER_MARKED", r.label(),
                        "PFC paused links for " + Fmt.us(s.pausedPs()) + " and sent " + Fmt.count(s.pauseFramesSent())
                                + " pause frames, but no packet was ECN-marked: congestion control never reacted",
                        "lower ECN Kmin on the lossless queue below the PFC XOFF level so DCQCN slows senders before PFC pauses",
                        "simulation", 1));
            }
        }
        out.sort(java.util.Comparator.comparingInt(f -> f.severity().ordinal()));
        return out;
    }

    private static String runCode(String reason) {
        String r = reason.toLowerCase(Locale.ROOT);
        if (r.contains("deadlock")) {
            return "SIM_PFC_DEADLOCK";
        }
        if (r.contains("headroom")) {
            return "SIM_HEADROOM_OVERFLOW";
        }
        if (r.contains("lossless")) {
            return "SIM_LOSSLESS_DROPS";
        }
        if (r.contains("did not complete")) {
            return "SIM_FLOWS_INCOMPLETE";
        }
        if (r.contains("lossy")) {
            return "SIM_LOSSY_DROPS";
        }
        if (r.contains("watchdog")) {
            return "SIM_WATCHDOG_STORM";
        }
        return "SIM_RETRANSMISSIONS";
    }

    private static String recommendation(String reason) {
        String r = reason.toLowerCase(Locale.ROOT);
        if (r.contains("deadlock")) {
            return "route up-down only and enable the PFC watchdog (watchdogUs) so a deadlock is detected and broken";
        }
        if (r.contains("headroom")) {
            return "raise PFC headroomBytes to at least the figure in the headroom table for the longest, fastest link";
        }
        if (r.contains("lossless")) {
            return "make PFC cover the priority the RDMA traffic uses on every hop and keep XOFF below the buffer limit";
        }
        if (r.contains("did not complete")) {
            return "look for a PFC deadlock or a cut-off pair; if the load is just long, raise the scenario's maxTimeUs";
        }
        if (r.contains("lossy")) {
            return "carry RoCEv2 on a PFC-protected priority, or enable ECN + DCQCN so senders slow down before buffers overflow";
        }
        if (r.contains("watchdog")) {
            return "find what holds the pause (a deadlock or a stuck receiver); the watchdog only limits the damage";
        }
        return "find the losses behind the retransmissions (drops column of the queue table) and remove their cause";
    }
}
