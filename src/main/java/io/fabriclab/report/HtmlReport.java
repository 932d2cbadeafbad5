package io.fabriclab.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.FabricSvg;
import io.fabriclab.io.ResultsJson;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Version;
import io.fabriclab.model.WredEcn;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.NicPairClass;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimResults;
import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.FailureImpact;
import io.fabriclab.topology.HeadroomCalculator;
import io.fabriclab.topology.Oversubscription;

/**
 * Writes a {@link DesignReview} as one self-contained XHTML document: styles inline, the topology
 * and every chart as inline SVG, no script, nothing fetched from anywhere. The PDF is this same
 * document laid out on A4 pages ({@link PdfReport}), so both carry the same content.
 */
public final class HtmlReport {
    /** Rows of long tables (failure impact, worst queues, PFC ports). */
    static final int TOP_ROWS = 15;
    /** Shortfall ports listed one by one in the headroom section. */
    static final int SHORTFALL_ROWS = 40;

    /** The section titles, in order (tests look for each in the HTML and the PDF text). */
    public static final List<String> SECTIONS = List.of("Verdict", "Topology", "Bill of materials",
            "Capacity and paths", "QoS configuration", "PFC headroom", "Deadlock analysis", "Failure impact",
            "Simulation results", "Findings", "Pre-deployment validation checklist", "Appendix: parameters");
    public static final String COMPARISON = "Comparison of runs";
    public static final String TRANSPORT_COMPARISON = "Transport comparison";

    private final DesignReview review;
    private final Fabric fabric;
    private final FabricAnalysis a;
    private final Html h = new Html();
    private final ResultsCharts charts = new ResultsCharts("fl");

    private HtmlReport(DesignReview review) {
        this.review = review;
        this.fabric = review.input().fabric();
        this.a = review.analysis();
    }

    /** The report as XHTML text. */
    public static String render(DesignReview review) {
        return render(review, DesignReview.Progress.NONE);
    }

    public static String render(DesignReview review, DesignReview.Progress progress) {
        return new HtmlReport(review).document(progress);
    }

    private String document(DesignReview.Progress progress) {
        ReportInput in = review.input();
        h.trusted("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n");
        h.open("html", "xmlns", "http://www.w3.org/1999/xhtml", "lang", "en").nl();
        h.open("head").nl();
        h.trusted("<meta charset=\"UTF-8\"/>\n");
        h.el("title", "Design review: " + fabric.name()).nl();
        h.open("style").trusted(ReportStyle.CSS).close("style");
        h.close("head");
        h.open("body").nl();
        cover(in);
        progress.update(0.55, "verdict");
        verdict();
        progress.update(0.58, "topology diagram");
        topology();
        billOfMaterials();
        capacity();
        qos();
        headroom();
        deadlock();
        failureImpact();
        progress.update(0.62, "charts");
        simulation(progress);
        comparison();
        transportComparison();
        sweeps();
        measured();
        findings();
        checklist();
        appendix(in);
        h.close("body").close("html");
        return h.toString();
    }

    // ---------------------------------------------------------------- cover and verdict

    private void cover(ReportInput in) {
        h.open("div", "class", "cover").nl();
        h.el("p", "FabricLab design review", "class", "kicker").nl();
        h.el("h1", fabric.name()).nl();
        if (fabric.description() != null && !fabric.description().isBlank()) {
            h.el("p", fabric.description(), "class", "subtitle").nl();
        }
        Status v = review.verdict();
        h.open("p", "class", "badge " + v.name().toLowerCase(Locale.ROOT))
                .text("Verdict: " + review.verdictWord() + " (" + review.tally() + ")").close("p");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"Fabric", fabric.name()});
        rows.add(new String[] {"Author", in.author()});
        rows.add(new String[] {"Date", in.date().toString()});
        rows.add(new String[] {"FabricLab version", Version.get()});
        rows.add(new String[] {"Source", in.source()});
        rows.add(new String[] {"Source SHA-256", in.sourceSha256() == null ? "not saved" : in.sourceSha256()});
        rows.add(new String[] {"Scenario hash (SHA-256)", scenarioHashes(in)});
        FabricAnalysis.Counts c = a.counts();
        rows.add(new String[] {"Size", Fmt.count(c.gpus()) + " GPUs, " + Fmt.count(c.servers()) + " servers, "
                + Fmt.count(c.switches()) + " switches, " + Fmt.count(c.links()) + " links"});
        rows.add(new String[] {"Simulation runs", in.runs().isEmpty() ? "none (static analysis only)"
                : String.valueOf(in.runs().size())});
        h.table("cover-table", new String[] {"", ""}, rows);
        h.close("div");
    }

    private static String scenarioHashes(ReportInput in) {
        List<String> hashes = new ArrayList<>();
        if (in.scenario() != null) {
            hashes.add(in.scenario().sha256());
        }
        for (ReportRun r : in.runs()) {
            if (r.metadata() != null && r.metadata().scenarioSha256() != null && !hashes.contains(r.metadata().scenarioSha256())) {
                hashes.add(r.metadata().scenarioSha256());
            }
        }
        return hashes.isEmpty() ? "no scenario (fabric only)" : String.join(", ", hashes);
    }

    private void verdict() {
        section("Verdict", "verdict");
        h.open("table", "class", "tally").open("tr");
        tally(review.count(Status.PASS), "checks passed", "pass");
        tally(review.count(Status.WARN), "warnings", "warn");
        tally(review.count(Status.FAIL), "failures", "fail");
        tally(review.count(Status.NOT_SIMULATED), "not simulated", "not_simulated");
        h.close("tr").close("table");
        List<Object[]> rows = new ArrayList<>();
        for (Check c : review.checks()) {
            rows.add(new Object[] {c.area(), c.name(), Html.statusCell(c.status(), c.status().label()), c.evidence()});
        }
        h.table("checks", new String[] {"area", "check", "result", "evidence"}, rows);
        h.close("div");
    }

    private void tally(long n, String what, String cls) {
        h.open("td", "class", "tally-cell " + cls).el("div", String.valueOf(n), "class", "tally-n")
                .el("div", what, "class", "tally-what").close("td");
    }

    // ---------------------------------------------------------------- static analysis

    private void topology() {
        section("Topology", "topology");
        FabricAnalysis.Counts c = a.counts();
        h.el("p", "The fabric as drawn, in the editor's visual language (links coloured by rail from servers to rail "
                + "leaves, else by speed; dashed red when down; servers folded into units when too small to read).");
        // Drawn on a larger canvas, so device names fit their boxes, and shown page-wide (the viewBox scales it).
        // Beyond a few thousand links the picture is a solid mass: draw an even sample (the editor's draft mode).
        boolean sample = fabric.linkCount() > SAMPLE_LINKS_ABOVE;
        String svg = FabricSvg.render(fabric, DIAGRAM_W, DIAGRAM_H, FabricPainter.Options.DEFAULT.withGrid(false)
                .withLabels(fabric.devices().size() <= 80).withDraft(sample));
        figure(displaySize(stripXmlDeclaration(svg), ResultsCharts.WIDTH, ResultsCharts.WIDTH * DIAGRAM_H / DIAGRAM_W),
                "Topology of " + fabric.name() + (sample ? " (" + Fmt.count(fabric.linkCount()) + " links: an even sample of "
                        + FabricPainter.DRAFT_LINES + " lines is drawn)" : ""));
        List<String[]> rows = new ArrayList<>();
        for (DeviceRole r : DeviceRole.values()) {
            if (r.isSwitch() && c.switchesByRole().getOrDefault(r, 0) > 0) {
                rows.add(new String[] {r.jsonName() + " switches", Fmt.count(c.switchesByRole().get(r))});
            }
        }
        rows.add(new String[] {"servers", Fmt.count(c.servers())});
        rows.add(new String[] {"GPUs", Fmt.count(c.gpus())});
        rows.add(new String[] {"NICs", Fmt.count(c.nics())});
        rows.add(new String[] {"links", Fmt.count(c.links())});
        c.cablesByTier().forEach((tier, n) -> rows.add(new String[] {"cables " + tier, Fmt.count(n)}));
        if (c.linksDown() > 0) {
            rows.add(new String[] {"links down", Fmt.count(c.linksDown())});
        }
        h.table("narrow", new String[] {"what", "count"}, rows, false, true);
        h.close("div");
    }

    private void billOfMaterials() {
        section("Bill of materials", "bom");
        BillOfMaterials b = a.billOfMaterials();
        h.el("p", "Quantities from the fabric; unit prices from the price book ("
                + (review.input().priceBook().description() == null ? "" : review.input().priceBook().description())
                + ", " + b.currency() + "). List prices before discount; verify with your vendors.");
        List<String[]> rows = new ArrayList<>();
        for (BillOfMaterials.Line l : b.lines()) {
            rows.add(new String[] {l.category().name().toLowerCase(Locale.ROOT), l.description(), Fmt.count(l.quantity()),
                    l.unit(), l.priced() ? money(l.unitPrice()) : "unpriced", l.priced() ? money(l.cost()) : "-"});
        }
        rows.add(new String[] {"", "Total" + (b.complete() ? "" : " (unpriced items excluded)"), "", "", "",
                b.currency() + " " + money(b.total())});
        h.table("bom", new String[] {"category", "item", "quantity", "unit", "unit price", "cost"}, rows,
                false, false, true, false, true, true);
        if (!b.unpriced().isEmpty()) {
            h.el("p", "No price in the price book for: " + String.join(", ", b.unpriced()), "class", "note");
        }
        for (BillOfMaterials.ServerModel m : b.serverModels()) {
            h.el("p", "Servers (not priced): " + m.describe() + ". " + BillOfMaterials.NVSWITCH_NOTE + ".", "class", "note");
        }
        h.close("div");
    }

    private static String money(java.math.BigDecimal v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%,.2f", v);
    }

    private void capacity() {
        section("Capacity and paths", "capacity");
        h.el("h3", "Oversubscription (downlink : uplink capacity)");
        List<String[]> rows = new ArrayList<>();
        for (Oversubscription.TierRatio t : a.oversubscription().tiers()) {
            rows.add(new String[] {"tier " + t.tier(), Fmt.count(t.downGbps()), Fmt.count(t.upGbps()), t.label()});
        }
        Oversubscription.SwitchRatio w = a.oversubscription().worstLeaf();
        if (w != null) {
            rows.add(new String[] {"worst leaf " + w.deviceId(), Fmt.count(w.downGbps()), Fmt.count(w.upGbps()), w.label()});
        }
        h.table(null, new String[] {"tier", "down Gb/s", "up Gb/s", "ratio"}, rows, false, true, true, true);
        h.el("h3", "Bisection bandwidth");
        h.el("p", String.format(Locale.ROOT, "%s Gb/s of %s Gb/s full bisection (%s): the least capacity between two "
                        + "halves of the GPUs (max flow / min cut).", Fmt.num(a.bisection().bandwidthGbps(), 0),
                Fmt.num(a.bisection().idealGbps(), 0), Fmt.percent(a.bisection().ratio())));
        h.el("h3", "ECMP paths between NIC pairs" + (a.failure() == null ? "" : " (after failure of " + a.failure().spec() + ")"));
        rows = new ArrayList<>();
        EcmpPathCounter.Summary all = a.ecmp().all();
        rows.add(ecmpRow("all", all));
        for (Map.Entry<NicPairClass, EcmpPathCounter.Summary> e : a.ecmp().byClass().entrySet()) {
            rows.add(ecmpRow(e.getKey().label(), e.getValue()));
        }
        h.table(null, new String[] {"NIC pairs", "count", "min paths", "mean", "max paths", "unreachable", "distribution"},
                rows, false, true, true, true, true, true, false);
        h.el("p", String.format(Locale.ROOT, "Hops (links NIC to NIC): diameter %d, mean %.2f, distribution %s.",
                a.hops().diameter(), a.hops().mean(), histogram(a.hops().histogram())));
        h.close("div");
    }

    private static String[] ecmpRow(String name, EcmpPathCounter.Summary s) {
        return new String[] {name, Fmt.count(s.nicPairs()), Fmt.count(s.min()), Fmt.num(s.mean(), 1), Fmt.count(s.max()),
                Fmt.count(s.unreachablePairs()), histogram(s.histogram())};
    }

    private static String histogram(Map<?, ?> hist) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (Map.Entry<?, ?> e : hist.entrySet()) {
            if (n++ == 8) {
                sb.append(", ...");
                break;
            }
            sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append(": ")
                    .append(e.getValue() instanceof Number num ? Fmt.count(num.longValue()) : String.valueOf(e.getValue()));
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- QoS

    private void qos() {
        section("QoS configuration", "qos");
        Map<String, Integer> usedBy = new TreeMap<>();
        for (Device d : fabric.devices()) {
            for (Port p : d.ports()) {
                if (fabric.linkAt(p) != null) {
                    QosProfile q = fabric.qosFor(p);
                    usedBy.merge(q == null ? "(none: lossless default per speed)" : q.name(), 1, Integer::sum);
                }
            }
        }
        List<QosProfile> profiles = new ArrayList<>(fabric.qosProfiles().values());
        h.el("p", "Profiles of the fabric (" + profiles.size() + "); default profile: "
                + (fabric.defaultQosProfile() == null ? "none" : fabric.defaultQosProfile()) + ". Linked ports per profile: "
                + usedBy.entrySet().stream().map(e -> e.getKey() + " " + Fmt.count(e.getValue())).reduce((x, y) -> x + ", " + y)
                .orElse("none") + ".");
        if (profiles.isEmpty()) {
            h.close("div");
            return;
        }
        for (int from = 0; from < profiles.size(); from += 4) {
            List<QosProfile> ps = profiles.subList(from, Math.min(profiles.size(), from + 4));
            qosTables(ps);
        }
        for (ReportRun r : review.input().runs()) {
            if (r.scenario() != null && (r.scenario().profile() != null && !r.scenario().profile().isBlank())) {
                h.el("p", "Run \"" + r.label() + "\" replaces PFC/ECN/DCQCN with the " + r.scenario().profile()
                        + " profile and the scenario's overrides; the QoS in force is shown with its results.", "class", "note");
            }
        }
        h.close("div");
    }

    private void qosTables(List<QosProfile> ps) {
        String[] head = new String[ps.size() + 1];
        head[0] = "setting";
        for (int i = 0; i < ps.size(); i++) {
            head[i + 1] = ps.get(i).name();
        }
        boolean[] num = new boolean[head.length];
        for (int i = 1; i < num.length; i++) {
            num[i] = true;
        }
        h.el("h3", "PFC (IEEE 802.1Qbb)");
        h.table("qos", head, rows(ps, List.of(
                row("enabled", q -> yes(q.pfc() != null && q.pfc().enabled())),
                row("lossless priorities", q -> q.pfc() == null ? "-" : q.pfc().priorities().toString()),
                row("XOFF (ingress PG)", q -> q.pfc() == null ? "-" : Fmt.count(q.pfc().xoffBytes()) + " B"),
                row("XON", q -> q.pfc() == null ? "-" : Fmt.count(q.pfc().xonBytes()) + " B"),
                row("headroom per port and priority", q -> q.pfc() == null ? "-" : Fmt.count(q.pfc().headroomBytes()) + " B"),
                row("watchdog", q -> q.pfc() == null || q.pfc().watchdogUs() == 0 ? "off"
                        : Fmt.count(q.pfc().watchdogUs()) + " us, " + q.pfc().watchdogAction().name().toLowerCase(Locale.ROOT)))), num);
        h.el("h3", "ECN / WRED marking");
        List<Row> ecn = new ArrayList<>();
        ecn.add(row("enabled", q -> yes(q.ecn() != null && q.ecn().enabled())));
        ecn.add(row("marking point", q -> q.ecn() == null ? "-" : q.ecn().markAt().name().toLowerCase(Locale.ROOT)));
        java.util.TreeSet<Integer> classes = new java.util.TreeSet<>();
        ps.forEach(q -> {
            if (q.ecn() != null) {
                classes.addAll(q.ecn().classes().keySet());
            }
        });
        for (int tc : classes) {
            ecn.add(row("class " + tc + " Kmin / Kmax / Pmax", q -> {
                WredEcn c = q.ecn() == null ? null : q.ecn().classes().get(tc);
                return c == null ? "not marked" : Fmt.count(c.kminBytes()) + " B / " + Fmt.count(c.kmaxBytes()) + " B / "
                        + Fmt.percent(c.pmax());
            }));
        }
        h.table("qos", head, rows(ps, ecn), num);
        h.el("h3", "DCQCN (NIC congestion control)");
        h.table("qos", head, rows(ps, List.of(
                row("enabled", q -> yes(q.dcqcn() != null && q.dcqcn().enabled())),
                row("CNP interval (NP)", q -> q.dcqcn() == null ? "-" : Fmt.num(q.dcqcn().cnpIntervalUs(), 1) + " us"),
                row("alpha timer / g", q -> q.dcqcn() == null ? "-" : Fmt.num(q.dcqcn().alphaTimerUs(), 1) + " us / 1/"
                        + Fmt.num(1 / q.dcqcn().g(), 0)),
                row("rate increase timer / byte counter", q -> q.dcqcn() == null ? "-"
                        : Fmt.num(q.dcqcn().rateIncreaseTimerUs(), 1) + " us / " + Fmt.bytes(q.dcqcn().byteCounterBytes())),
                row("fast recovery steps F", q -> q.dcqcn() == null ? "-" : String.valueOf(q.dcqcn().fastRecoverySteps())),
                row("R_AI / R_HAI", q -> q.dcqcn() == null ? "-" : Fmt.num(q.dcqcn().rateAiMbps(), 0) + " / "
                        + Fmt.num(q.dcqcn().rateHaiMbps(), 0) + " Mb/s"),
                row("initial alpha / Rmin", q -> q.dcqcn() == null ? "-" : Fmt.num(q.dcqcn().initialAlpha(), 2) + " / "
                        + Fmt.num(q.dcqcn().minRateMbps(), 0) + " Mb/s"),
                row("min cut interval / max cut", q -> q.dcqcn() == null ? "-" : Fmt.num(q.dcqcn().minCutIntervalUs(), 1)
                        + " us / " + Fmt.percent(q.dcqcn().maxCutFraction())))), num);
        h.el("h3", "Buffers and scheduling");
        h.table("qos", head, rows(ps, List.of(
                row("shared pool", q -> q.buffer() == null ? "-" : Fmt.bytes(q.buffer().poolBytes())),
                row("threshold mode", q -> q.buffer() == null ? "-" : q.buffer().mode() == io.fabriclab.model.BufferConfig.ThresholdMode.DYNAMIC
                        ? "dynamic, alpha " + Fmt.num(q.buffer().alpha(), 3) : "static, " + Fmt.bytes(q.buffer().staticLimitBytes()) + " per queue"),
                row("reserved per queue", q -> q.buffer() == null ? "-" : Fmt.bytes(q.buffer().reservedPerQueueBytes())),
                row("largest queue allowed", q -> q.buffer() == null ? "-" : Fmt.bytes(q.buffer().maxQueueBytes())),
                row("strict-priority classes", q -> q.scheduler() == null ? "-" : q.scheduler().strictPriorityClasses().toString()),
                row("DWRR weights (class 0-7)", q -> q.scheduler() == null ? "-" : q.scheduler().dwrrWeights().toString()))), num);
    }

    private record Row(String name, java.util.function.Function<QosProfile, String> value) {
    }

    private static Row row(String name, java.util.function.Function<QosProfile, String> value) {
        return new Row(name, value);
    }

    private static List<String[]> rows(List<QosProfile> ps, List<Row> rows) {
        List<String[]> out = new ArrayList<>();
        for (Row r : rows) {
            String[] cells = new String[ps.size() + 1];
            cells[0] = r.name();
            for (int i = 0; i < ps.size(); i++) {
                cells[i + 1] = r.value().apply(ps.get(i));
            }
            out.add(cells);
        }
        return out;
    }

    private static String yes(boolean b) {
        return b ? "yes" : "no";
    }

    // ---------------------------------------------------------------- headroom, deadlock, failures

    private void headroom() {
        section("PFC headroom", "headroom");
        h.el("p", "Headroom each receiving switch port needs per lossless priority for what still arrives after it sends "
                + "PAUSE: a maximum frame being received, the PFC frame, the cable there and back (5 ns/m), the interface "
                + "delays, the peer's response time and the frame it is sending (IEEE 802.1Qbb Annex; Cisco/NVIDIA sizing "
                + "guides). Ports are grouped by QoS profile, speed and cable length; a group fails when its configured "
                + "headroom is below the need.");
        if (a.headroom().isEmpty()) {
            h.el("p", "No linked switch port has a lossless priority: nothing to size.", "class", "note");
            h.close("div");
            return;
        }
        List<Object[]> rows = new ArrayList<>();
        boolean anyExtrapolated = false;
        for (HeadroomCalculator.PortClass c : HeadroomCalculator.classes(a.headroom())) {
            HeadroomCalculator.Requirement r = c.required();
            long margin = c.marginBytes();
            anyExtrapolated |= r.extrapolated();
            rows.add(new Object[] {c.qosProfile(), r.speedGbps() + "G", Fmt.num(r.cableLengthM(), 1) + " m",
                    Fmt.count(c.ports().size()),
                    Fmt.count(r.receiverFrameBytes() + r.senderFrameBytes() + r.pfcFrameBytes()),
                    Fmt.count(r.cableBytes()), Fmt.count(r.interfaceBytes()), Fmt.count(r.peerResponseBytes()),
                    Fmt.count(r.totalBytes()), Fmt.count(c.configuredBytes()),
                    Html.statusCell(margin >= 0 ? Status.PASS : Status.FAIL, (margin >= 0 ? "+" : "") + Fmt.count(margin)),
                    r.interfaceSource()});
        }
        h.table("headroom", new String[] {"profile", "speed", "cable", "ports", "frames B", "cable B", "interface B",
            "response B", "needed B", "configured B", "margin B", "interface delay from"}, rows, false, true, true, true,
                true, true, true, true, true, true, true, false);
        h.el("p", "Interface: the MAC/PHY delay of both ends, per speed (IEEE 802.3 bounds at 10-100G; SONiC's Spectrum "
                + "mac_phy_delay of 0.8 KiB at 50G and 200-400G). Response: the peer's pause_quanta (IEEE 802.3 31B.3.7) x "
                + "512 bit times." + (anyExtrapolated
                        ? " Rows marked extrapolated use a figure carried over from another speed: no source covers it."
                        : ""), "class", "note");
        List<HeadroomCalculator.PortHeadroom> shortPorts = a.headroom().stream()
                .filter(HeadroomCalculator.PortHeadroom::shortfall)
                .sorted(Comparator.comparingLong(HeadroomCalculator.PortHeadroom::missingBytes).reversed()).toList();
        if (!shortPorts.isEmpty()) {
            h.el("h3", "Ports short of headroom (" + Fmt.count(shortPorts.size()) + ", most short first)");
            List<String[]> sr = new ArrayList<>();
            for (HeadroomCalculator.PortHeadroom p : shortPorts.subList(0, Math.min(SHORTFALL_ROWS, shortPorts.size()))) {
                sr.add(new String[] {p.port(), p.link(), p.qosProfile(), Fmt.count(p.required().totalBytes()),
                        Fmt.count(p.configuredBytes()), Fmt.count(p.missingBytes())});
            }
            h.table(null, new String[] {"port", "link", "profile", "needed B", "configured B", "missing B"}, sr,
                    false, false, false, true, true, true);
            if (shortPorts.size() > SHORTFALL_ROWS) {
                h.el("p", "... and " + Fmt.count(shortPorts.size() - SHORTFALL_ROWS) + " more ports.", "class", "note");
            }
        }
        h.close("div");
    }

    private void deadlock() {
        section("Deadlock analysis", "deadlock");
        DeadlockCheck.Result dl = a.deadlock();
        h.el("p", "Cyclic buffer dependencies between ingress queues of the lossless priorities under the fabric's ECMP "
                + "routing: a cycle means PFC pauses can hold each other forever (a PFC deadlock).");
        h.el("h3", a.failure() == null ? "As designed" : "After failure of " + a.failure().spec());
        h.el("p", Fmt.count(dl.dependencies()) + " buffer dependencies on priorities " + dl.priorities() + ": "
                + (dl.deadlockFree() ? "no cyclic buffer dependency." : dl.cycles().size() + " cycle(s)."));
        cycles(dl);
        FailureDeadlocks fd = review.failureDeadlocks();
        h.el("h3", "With a failure");
        h.el("p", fd.exhaustive()
                ? "Every single inter-switch link and every switch failed in turn (" + fd.checked().size() + " cases), routing recomputed, "
                + "and the check repeated."
                : fd.checked().size() + " failures checked of " + Fmt.count(fd.candidates()) + " possible: the worst-ranked links and "
                + "switches of the failure impact sweep (each check recomputes routing).");
        List<Object[]> rows = new ArrayList<>();
        List<FailureDeadlocks.Case> shown = new ArrayList<>(fd.deadlocking());
        for (FailureDeadlocks.Case c : fd.checked()) {
            if (shown.size() >= TOP_ROWS) {
                break;
            }
            if (c.result().deadlockFree()) {
                shown.add(c);
            }
        }
        for (FailureDeadlocks.Case c : shown) {
            DeadlockCheck.Result r = c.result();
            rows.add(new Object[] {c.failed(), c.kind(), Fmt.count(r.dependencies()),
                    Html.statusCell(r.deadlockFree() ? Status.PASS : Status.FAIL, r.deadlockFree() ? "no cycle"
                            : r.cycles().size() + " cycle(s): " + String.join(" > ", r.cycles().get(0).switches()))});
        }
        h.table(null, new String[] {"failed", "kind", "dependencies", "result"}, rows, false, false, true, false);
        if (fd.checked().size() > shown.size()) {
            h.el("p", (fd.checked().size() - shown.size()) + " more failures checked, all without a cycle.", "class", "note");
        }
        for (FailureDeadlocks.Case c : fd.deadlocking()) {
            h.el("p", "After failure of " + c.failed() + ":", "class", "note");
            cycles(c.result());
            break;
        }
        h.close("div");
    }

    private void cycles(DeadlockCheck.Result dl) {
        for (DeadlockCheck.Cycle cy : dl.cycles()) {
            List<String[]> rows = new ArrayList<>();
            for (int i = 0; i < cy.queues().size(); i++) {
                DeadlockCheck.IngressQueue q = cy.queues().get(i);
                DeadlockCheck.IngressQueue next = cy.queues().get((i + 1) % cy.queues().size());
                rows.add(new String[] {String.valueOf(i + 1), q.toString(), "waits on " + next.toString(),
                        i < cy.destinations().size() ? String.join(", ", cy.destinations().get(i)) : ""});
            }
            h.table("cycle", new String[] {"#", "ingress queue (priority " + cy.priority() + ")", "dependency", "traffic to"}, rows);
        }
    }

    private void failureImpact() {
        section("Failure impact", "failures");
        if (a.failureImpact() == null) {
            h.el("p", "The failure sweep was not run.", "class", "note");
            h.close("div");
            return;
        }
        h.el("p", "Every single link and switch failed in turn (" + Fmt.count(a.failureImpact().items().size())
                + " cases); worst first: NIC pairs cut off, then the largest share of ECMP paths a pair of edge switches loses, "
                + "then capacity lost.");
        List<FailureImpact.Item> access = a.failureImpact().items().stream()
                .filter(i -> i.kind() == FailureImpact.Kind.ACCESS_LINK).toList();
        long cutting = access.stream().filter(i -> i.nicPairsDisconnected() > 0).count();
        if (!access.isEmpty()) {
            h.el("p", Fmt.count(access.size()) + " server access links: " + Fmt.count(cutting)
                    + " cut their NIC off when they fail (a single-homed NIC has one path by design); they are left out of "
                    + "the table below, which ranks switches and inter-switch links.", "class", "note");
        }
        List<String[]> rows = new ArrayList<>();
        for (FailureImpact.Item i : a.failureImpact().ranked().stream().filter(i -> i.kind() != FailureImpact.Kind.ACCESS_LINK)
                .limit(TOP_ROWS).toList()) {
            rows.add(new String[] {i.subject(), i.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '),
                    Fmt.count(Math.round(i.capacityLostGbps())), Fmt.count(i.nicPairsDisconnected()),
                    Fmt.percent(i.worstDropFraction()),
                    i.worstPair() == null ? "-" : i.worstPair().fromSwitch() + " > " + i.worstPair().toSwitch() + ": "
                            + i.worstPair().pathsBefore() + " > " + i.worstPair().pathsAfter() + " paths"});
        }
        h.table(null, new String[] {"failed", "kind", "capacity lost Gb/s", "NIC pairs cut off", "worst path drop",
            "worst pair"}, rows, false, false, true, true, true, false);
        if (a.failure() != null) {
            FailureImpact.Detail d = a.failure().detail();
            h.el("p", String.format(Locale.ROOT, "Failure of %s: %s Gb/s lost, %s NIC pairs cut off, worst pair loses %s of "
                            + "its paths, %d switch pairs changed.", a.failure().spec(), Fmt.num(d.capacityLostGbps(), 0),
                    Fmt.count(d.nicPairsDisconnected()), Fmt.percent(d.worstDropFraction()), d.changedPairs().size()));
        }
        h.close("div");
    }

    // ---------------------------------------------------------------- simulation

    private void simulation(DesignReview.Progress progress) {
        section("Simulation results", "simulation");
        List<ReportRun> runs = review.input().runs();
        if (runs.isEmpty()) {
            h.el("p", "No simulation results were given: the pre-deployment checklist below says \"not simulated\" for "
                    + "every item. Run `fabriclab simulate SCENARIO -o RESULTS` and pass --results RESULTS.", "class", "note");
            h.close("div");
            return;
        }
        int i = 0;
        for (ReportRun r : runs) {
            progress.update(0.62 + 0.2 * i++ / runs.size(), "charts of " + r.label());
            run(r);
        }
        h.close("div");
    }

    private void run(ReportRun r) {
        SimResults res = r.results();
        SimResults.RunInfo info = res.run();
        SimResults.Summary s = res.summary();
        RunOutcome o = review.outcomes().get(r);
        h.open("div", "class", "run").nl();
        h.el("h3", r.label());
        h.open("p").text("Scenario: " + r.scenarioName() + "; results: " + r.source() + ". Outcome: ")
                .el("span", o.status().label(), "class", "status " + o.status().name().toLowerCase(Locale.ROOT))
                .text(o.reasons().isEmpty() ? "." : " (" + String.join("; ", o.reasons()) + ").").close("p");
        if (r.scenario() != null && r.scenario().description() != null && !r.scenario().description().isBlank()) {
            h.el("p", r.scenario().description(), "class", "note");
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"stop", RunEnding.headline(res, "us") + "; seed " + info.seed()});
        rows.add(new String[] {"flows", Fmt.count(info.flowsCompleted()) + " of " + Fmt.count(info.flows()) + " completed"});
        rows.add(new String[] {"flow completion time", info.flowsCompleted() == 0 ? "no flow completed"
                : "p50 " + Fmt.usValue(s.fctP50Us()) + ", p99 " + Fmt.usValue(s.fctP99Us())
                + ", max " + Fmt.usValue(s.fctMaxUs()) + "; mean flow throughput " + Fmt.gbps(s.meanThroughputGbps())});
        rows.add(new String[] {"PFC", Fmt.count(s.pauseFramesSent()) + " pause frames, " + Fmt.count(s.resumeFramesSent())
                + " resumes, " + Fmt.us(s.pausedPs()) + " paused in total; " + s.watchdogStorms() + " watchdog storms"});
        rows.add(new String[] {"ECN and DCQCN", Fmt.count(s.ecnMarked()) + " packets marked, " + Fmt.count(s.cnpsSent())
                + " CNPs sent, " + Fmt.count(s.cnpsReceived()) + " received"});
        rows.add(new String[] {"drops", Fmt.count(s.drops()) + " (buffer " + Fmt.count(s.bufferDrops()) + ", headroom overflow "
                + Fmt.count(s.headroomOverflowDrops()) + ", watchdog " + Fmt.count(s.watchdogDrops()) + ", link down "
                + Fmt.count(s.linkDownDrops()) + "); " + Fmt.bytes(s.retransmittedBytes()) + " retransmitted; "
                + info.reroutes() + " reroutes"});
        rows.add(new String[] {"deepest queue", Fmt.bytes(s.maxQueueBytes()) + (s.maxQueue() == null ? "" : " at " + s.maxQueue())});
        if (info.routing() != null && !info.routing().isBlank()) {
            rows.add(new String[] {"routing", info.routing()});
        }
        res.uplinks().stream().max(Comparator.comparingDouble(SimResults.UplinkSpread::maxOverMean)).ifPresent(u ->
                rows.add(new String[] {"ECMP uplink spread", "most uneven: " + u.device() + ", busiest uplink carries "
                        + Fmt.num(u.maxOverMean(), 2) + "x the mean of its " + u.ports().size() + " uplinks (1.00 = even)"}));
        for (SimResults.DeadlockResult d : res.deadlocks()) {
            rows.add(new String[] {"PFC DEADLOCK", "priority " + d.priority() + " at " + Fmt.us(d.detectedPs()) + ": "
                    + String.join(", ", d.ports())});
        }
        h.table("narrow-first", new String[] {"measure", "value"}, rows);
        qosInForce(r);
        figure(displaySize(stripXmlDeclaration(RunMap.svg(r, fabric)), ResultsCharts.WIDTH,
                ResultsCharts.WIDTH * RunMap.H / RunMap.W), "The run on the topology, in the live view's language: each link "
                + "direction coloured by the peak depth of its egress queues (against ECN Kmax, or PFC XOFF), pause symbols "
                + "where PFC paused it, ECN sparks by marking rate, drop flashes, a deadlock cycle outlined.");
        String depth = charts.queueDepth(r, fabric);
        if (depth == null) {
            h.el("p", "No egress queue depth series: no queue held data during the run.", "class", "note");
        }
        figure(depth, null);
        figure(charts.pauseTime(r), null);
        figure(charts.ecnAndCnps(r), null);
        figure(charts.throughput(r), null);
        figure(charts.fctCdf(List.of(r)), null);
        h.el("p", "FCT percentiles of completed flows: " + percentiles(res), "class", "note");
        if (!res.collectives().isEmpty()) {
            figure(charts.collectives(List.of(r)), null);
            List<String[]> cr = new ArrayList<>();
            for (SimResults.CollectiveResult c : res.collectives()) {
                cr.add(new String[] {c.kind(), c.name(), String.valueOf(c.ranks()), Fmt.bytes(c.bytes()),
                        c.timePs() < 0 ? "did not complete" : Fmt.us(c.timePs()), Fmt.num(c.algbwGBps(), 2),
                        Fmt.num(c.busbwGBps(), 2)});
            }
            h.table(null, new String[] {"collective", "name", "ranks", "size S", "time", "algbw GB/s", "busbw GB/s"}, cr,
                    false, false, true, true, true, true, true);
        }
        List<SimResults.QueueResult> qs = new ArrayList<>(res.queues());
        qs.sort(Comparator.comparingLong(SimResults.QueueResult::maxBytes).reversed());
        List<String[]> qr = new ArrayList<>();
        for (SimResults.QueueResult q : qs.subList(0, Math.min(TOP_ROWS / 2 + 1, qs.size()))) {
            qr.add(new String[] {q.port() + " > " + q.peer(), String.valueOf(q.trafficClass()), Fmt.bytes(q.maxBytes()),
                    Fmt.count(q.ecnMarked()), Fmt.count(q.dropsBuffer() + q.dropsHeadroomOverflow() + q.dropsWatchdog()
                    + q.dropsLinkDown()), Fmt.num(q.maxLatencyNs() / 1000, 1)});
        }
        if (!qr.isEmpty()) {
            h.el("h4", "Deepest egress queues");
            h.table(null, new String[] {"queue", "class", "max depth", "ECN marks", "drops", "max latency us"}, qr,
                    false, true, true, true, true, true);
        }
        List<SimResults.PfcResult> pfc = new ArrayList<>(res.pfc());
        pfc.sort(Comparator.comparingLong(SimResults.PfcResult::pausedPs).reversed()
                .thenComparing(Comparator.comparingLong(SimResults.PfcResult::pauseFramesSent).reversed()));
        List<String[]> pr = new ArrayList<>();
        for (SimResults.PfcResult p : pfc.subList(0, Math.min(TOP_ROWS / 2 + 1, pfc.size()))) {
            pr.add(new String[] {p.port(), String.valueOf(p.priority()), Fmt.count(p.pauseFramesSent()),
                    Fmt.count(p.pauseFramesReceived()), Fmt.num(p.pausedPs() / 1e6, 1), Fmt.bytes(p.maxIngressBytes()),
                    Fmt.bytes(p.xoffBytes()), Fmt.bytes(p.headroomBytes())});
        }
        if (!pr.isEmpty()) {
            h.el("h4", "PFC by port and priority");
            h.table(null, new String[] {"port", "prio", "XOFF sent", "frames received", "paused us", "max ingress",
                "XOFF", "headroom"}, pr, false, true, true, true, true, true, true, true);
        }
        h.close("div");
    }

    /** The QoS in force on switch ports during a run when a scenario rewrote it (profile or overrides). */
    private void qosInForce(ReportRun r) {
        if (r.scenario() == null) {
            return;
        }
        QosResolver qos = r.qos(fabric);
        Map<QosProfile, Integer> seen = new LinkedHashMap<>();
        for (Device d : r.scenario().fabric().switches()) {
            for (Port p : d.ports()) {
                if (r.scenario().fabric().linkAt(p) != null) {
                    QosProfile q = qos.qosFor(p);
                    if (q != null) {
                        seen.merge(q, 1, Integer::sum);
                    }
                }
            }
        }
        if (seen.isEmpty() || seen.size() > 4) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<QosProfile, Integer> e : seen.entrySet()) {
            QosProfile q = e.getKey();
            String pfc = q.pfc() != null && q.pfc().enabled() ? "on " + q.pfc().priorities() + ", XOFF " + Fmt.count(q.pfc().xoffBytes())
                    + " B, XON " + Fmt.count(q.pfc().xonBytes()) + " B, headroom " + Fmt.count(q.pfc().headroomBytes()) + " B" : "off";
            StringBuilder ecn = new StringBuilder(q.ecn() != null && q.ecn().enabled() ? "" : "off");
            if (q.ecn() != null && q.ecn().enabled()) {
                q.ecn().classes().forEach((tc, c) -> ecn.append(ecn.length() == 0 ? "" : "; ").append("class ").append(tc)
                        .append(' ').append(Fmt.count(c.kminBytes())).append('/').append(Fmt.count(c.kmaxBytes())).append(" B, ")
                        .append(Fmt.percent(c.pmax())));
            }
            rows.add(new String[] {q.name(), Fmt.count(e.getValue()), pfc, ecn.toString(),
                    q.dcqcn() != null && q.dcqcn().enabled() ? "on" : "off"});
        }
        h.el("h4", "QoS in force during this run");
        h.table(null, new String[] {"profile", "switch ports", "PFC", "ECN (Kmin/Kmax, Pmax)", "DCQCN"}, rows,
                false, true, false, false, false);
    }

    private static String percentiles(SimResults res) {
        double[] fct = res.flows().stream().filter(f -> f.fctPs() >= 0).mapToDouble(f -> f.fctPs() / 1e6).sorted().toArray();
        if (fct.length == 0) {
            return "no flow completed.";
        }
        StringBuilder sb = new StringBuilder();
        for (double p : new double[] {0.5, 0.9, 0.99, 0.999, 1.0}) {
            // nearest-rank percentile
            int idx = (int) Math.ceil(p * fct.length) - 1;
            sb.append(sb.length() == 0 ? "" : ", ").append(p == 1.0 ? "max" : "p" + Fmt.num(p * 100, p >= 0.999 ? 1 : 0))
                    .append(' ').append(Fmt.usValue(fct[Math.max(0, idx)]));
        }
        return sb.append(" (").append(Fmt.count(fct.length)).append(" flows).").toString();
    }

    private void comparison() {
        List<ReportRun> runs = review.input().runs();
        if (runs.size() < 2) {
            return;
        }
        section(COMPARISON, "comparison");
        h.el("p", "The runs side by side; the best value of each row is bold where lower is better.");
        String[] head = new String[runs.size() + 1];
        head[0] = "measure";
        for (int i = 0; i < runs.size(); i++) {
            head[i + 1] = runs.get(i).label();
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(cmp(runs, "outcome", r -> review.outcomes().get(r).status().label()));
        rows.add(cmp(runs, "scenario SHA-256", r -> r.metadata() == null || r.metadata().scenarioSha256() == null ? "-"
                : r.metadata().scenarioSha256().substring(0, Math.min(12, r.metadata().scenarioSha256().length()))));
        rows.add(cmp(runs, "seed", r -> String.valueOf(r.results().run().seed())));
        rows.add(cmp(runs, "engine", r -> ReportRuns.engine(r.results())));
        rows.add(cmp(runs, "flows completed", r -> r.results().run().flowsCompleted() + " / " + r.results().run().flows()));
        rows.add(cmp(runs, "simulated time", r -> Fmt.us(r.results().run().simulatedPs())));
        rows.add(cmp(runs, "FCT p50", r -> RunEnding.fct(r.results(), r.results().summary().fctP50Us())));
        rows.add(cmp(runs, "FCT p99", r -> RunEnding.fct(r.results(), r.results().summary().fctP99Us())));
        rows.add(cmp(runs, "FCT max", r -> RunEnding.fct(r.results(), r.results().summary().fctMaxUs())));
        rows.add(cmp(runs, "mean flow throughput", r -> Fmt.gbps(r.results().summary().meanThroughputGbps())));
        rows.add(cmp(runs, "PFC pause frames", r -> Fmt.count(r.results().summary().pauseFramesSent())));
        rows.add(cmp(runs, "PFC paused time", r -> Fmt.us(r.results().summary().pausedPs())));
        rows.add(cmp(runs, "ECN-marked packets", r -> Fmt.count(r.results().summary().ecnMarked())));
        rows.add(cmp(runs, "CNPs received", r -> Fmt.count(r.results().summary().cnpsReceived())));
        rows.add(cmp(runs, "drops", r -> Fmt.count(r.results().summary().drops())));
        rows.add(cmp(runs, "headroom overflow drops", r -> Fmt.count(r.results().summary().headroomOverflowDrops())));
        rows.add(cmp(runs, "retransmitted", r -> Fmt.bytes(r.results().summary().retransmittedBytes())));
        rows.add(cmp(runs, "deepest queue", r -> Fmt.bytes(r.results().summary().maxQueueBytes())));
        rows.add(cmp(runs, "PFC deadlocks", r -> String.valueOf(r.results().deadlocks().size())));
        rows.add(cmp(runs, "collectives (busbw GB/s)", r -> r.results().collectives().isEmpty() ? "-"
                : String.join(", ", r.results().collectives().stream().map(c -> c.name() + " " + Fmt.num(c.busbwGBps(), 2)).toList())));
        boolean[] num = new boolean[head.length];
        for (int i = 1; i < num.length; i++) {
            num[i] = true;
        }
        h.table("compare", head, rows, num);
        figure(charts.compareFct(runs), null);
        figure(charts.compareCongestion(runs), null);
        figure(charts.fctCdf(runs), null);
        if (runs.stream().anyMatch(r -> !r.results().collectives().isEmpty())) {
            figure(charts.collectives(runs), null);
        }
        h.close("div");
    }

    /** The scenario under each transport of `fabriclab compare` (docs/model.md, Transports). */
    private void transportComparison() {
        TransportComparison tc = review.input().transports();
        if (tc == null) {
            return;
        }
        section(TRANSPORT_COMPARISON, "transports");
        h.el("p", "Scenario " + tc.scenarioName() + " on the same drawing under each transport: the same workload, the "
                + "transport's framing, link layer, switches and NIC transport, and the fabric's bill of materials built "
                + "with that transport's parts (prices from the price book: " + review.input().priceBook().description()
                + "). Throughput and cost are also given as a share of InfiniBand's when InfiniBand is in the set.");
        List<String> notRun = tc.rows().stream().filter(r -> !r.simulated()).map(r -> r.transport().displayName()).toList();
        if (!notRun.isEmpty()) {
            h.el("p", String.join(", ", notRun) + ": " + TransportComparison.NOT_SIMULATED + " (its column gives no "
                    + "figures, only its cost); this build simulates "
                    + io.fabriclab.sim.TransportProfile.simulatedNames() + ".");
        }
        List<String[]> table = tc.table();
        String[] head = table.get(0);
        boolean[] num = new boolean[head.length];
        for (int i = 1; i < num.length; i++) {
            num[i] = true;
        }
        h.table("compare", head, table.subList(1, table.size()), num);
        h.close("div");
    }

    /** Measured counters beside the first run (`fabriclab report --counters`, docs/counters.md). */
    private void measured() {
        if (review.input().counters() != null) {
            List<ReportRun> runs = review.input().runs();
            h.trusted(MeasuredSection.section(fabric, review.input().counters(), runs.isEmpty() ? null : runs.get(0))).nl();
        }
    }

    /** Each finished sweep of `fabriclab report --sweep` as its own section (docs/sweep.md). */
    private void sweeps() {
        List<io.fabriclab.sweep.SweepSummary> sweeps = review.input().sweeps();
        for (int i = 0; i < sweeps.size(); i++) {
            h.trusted(SweepSection.section(sweeps.get(i), i == 0 ? "sweep" : "sweep-" + (i + 1), "sweep" + (i + 1) + "-")).nl();
        }
    }

    private static String[] cmp(List<ReportRun> runs, String name, java.util.function.Function<ReportRun, String> f) {
        String[] row = new String[runs.size() + 1];
        row[0] = name;
        for (int i = 0; i < runs.size(); i++) {
            row[i + 1] = f.apply(runs.get(i));
        }
        return row;
    }

    // ---------------------------------------------------------------- findings, checklist, appendix

    private void findings() {
        section("Findings", "findings");
        if (review.findings().isEmpty()) {
            h.el("p", "No findings.");
            h.close("div");
            return;
        }
        List<Object[]> rows = new ArrayList<>();
        for (ReviewFinding f : review.findings()) {
            Status s = switch (f.severity()) {
                case ERROR -> Status.FAIL;
                case WARNING -> Status.WARN;
                case INFO -> Status.PASS;
            };
            rows.add(new Object[] {Html.statusCell(s, f.severity().name().toLowerCase(Locale.ROOT)), f.code(), f.subject(),
                    f.evidence(), f.recommendation(), f.source()});
        }
        h.table("findings", new String[] {"severity", "code", "subject", "evidence", "recommended change", "from"}, rows);
        h.close("div");
    }

    private void checklist() {
        section("Pre-deployment validation checklist", "checklist");
        h.el("p", "The tests a network team runs before a RoCE fabric carries training jobs, each with what the simulation "
                + "runs given to this report showed. \"Not simulated\" means no run covers the item: it is open, not passed.");
        List<Object[]> rows = new ArrayList<>();
        int i = 1;
        for (ValidationChecklist.Item it : review.checklist().items()) {
            rows.add(new Object[] {String.valueOf(i++), it.kind().title(), it.kind().what(),
                    Html.statusCell(it.status(), it.status().label()), it.outcome()});
        }
        h.table("checklist", new String[] {"#", "item", "what it exercises", "result", "simulated outcome"}, rows);
        h.close("div");
    }

    private void appendix(ReportInput in) {
        section("Appendix: parameters", "appendix");
        h.el("p", "Everything needed to reproduce this review: the inputs with their hashes, the analysis options, every "
                + "QoS profile field, and each run's scenario and run settings.");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"FabricLab version", Version.get()});
        rows.add(new String[] {"source", in.source()});
        rows.add(new String[] {"source SHA-256", in.sourceSha256() == null ? "not saved" : in.sourceSha256()});
        rows.add(new String[] {"command", in.commandLine().isBlank() ? "-" : in.commandLine()});
        rows.add(new String[] {"fabric", fabric.name() + ", MTU " + fabric.mtuBytes() + " B, default QoS profile "
                + (fabric.defaultQosProfile() == null ? "none" : fabric.defaultQosProfile())});
        rows.add(new String[] {"price book", (in.priceBook().description() == null ? "" : in.priceBook().description()) + " ("
                + in.priceBook().currency() + ", " + in.priceBook().prices().size() + " prices)"});
        rows.add(new String[] {"failure analysed", in.options().failureSpec() == null ? "none (healthy fabric)" : in.options().failureSpec()});
        rows.add(new String[] {"failure sweep", in.options().failureSweep() ? "every single link and switch" : "off"});
        rows.add(new String[] {"analysis time", a.timingsMs().entrySet().stream().map(e -> e.getKey() + " " + e.getValue() + " ms")
                .reduce((x, y) -> x + ", " + y).orElse("-")});
        h.table("narrow-first", new String[] {"parameter", "value"}, rows);
        h.el("h3", "QoS profiles (every field)");
        for (QosProfile q : fabric.qosProfiles().values()) {
            h.el("pre", json(q), "class", "params");
        }
        h.el("h3", "Price book");
        List<String[]> pr = new ArrayList<>();
        new TreeMap<>(in.priceBook().prices()).forEach((k, v) -> pr.add(new String[] {k, money(v)}));
        h.table("narrow", new String[] {"key", "unit price (" + in.priceBook().currency() + ")"}, pr, false, true);
        if (in.scenarioText() != null) {
            h.el("h3", "Scenario " + in.source());
            h.el("pre", in.scenarioText(), "class", "params");
        }
        for (ReportRun r : in.runs()) {
            h.el("h3", "Run " + r.label());
            SimResults.RunInfo info = r.results().run();
            List<String[]> rr = new ArrayList<>();
            ResultsJson.Metadata m = r.metadata();
            if (m != null) {
                rr.add(new String[] {"produced by", "FabricLab " + m.fabriclabVersion()});
                rr.add(new String[] {"scenario", m.scenarioName() + " (" + m.scenarioFile() + ")"});
                rr.add(new String[] {"scenario SHA-256", String.valueOf(m.scenarioSha256())});
                rr.add(new String[] {"fabric", String.valueOf(m.fabric())});
                rr.add(new String[] {"QoS profile override", m.profile() == null ? "none" : m.profile()});
            }
            rr.add(new String[] {"results", r.source()});
            rr.add(new String[] {"engine", ReportRuns.engine(r.results())});
            rr.add(new String[] {"seed", String.valueOf(info.seed())});
            rr.add(new String[] {"sample interval", Fmt.us(info.sampleIntervalPs())});
            rr.add(new String[] {"events", Fmt.count(info.events())});
            rr.add(new String[] {"stop reason", info.stopReason().name()});
            if (r.scenario() != null) {
                var cfg = r.scenario().config();
                rr.add(new String[] {"run settings", cfg.toString()});
            }
            h.table("narrow-first", new String[] {"parameter", "value"}, rr);
            if (r.scenarioText() != null && (in.scenarioText() == null || !in.scenarioText().equals(r.scenarioText()))) {
                h.el("pre", r.scenarioText(), "class", "params");
            }
        }
        h.close("div");
    }

    // ---------------------------------------------------------------- helpers

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = io.fabriclab.io.JsonInput.writingMapper()
            .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

    /** A value's every field as indented JSON (records serialise component by component). */
    static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return String.valueOf(o);
        }
    }

    private void section(String title, String id) {
        h.open("div", "class", "section", "id", id).nl();
        h.el("h2", title).nl();
    }

    private void figure(String svg, String caption) {
        if (svg == null) {
            return;
        }
        h.open("div", "class", "figure").trusted(svg).nl();
        if (caption != null) {
            h.el("p", caption, "class", "caption");
        }
        h.close("div");
    }

    private static final int DIAGRAM_W = 1100;
    /** Links above which the topology picture draws an even sample of them. */
    static final int SAMPLE_LINKS_ABOVE = 3000;
    private static final int DIAGRAM_H = 720;

    /** Sets the root element's display width and height, keeping its viewBox (the drawing's own units). */
    static String displaySize(String svg, int width, int height) {
        int end = svg.indexOf('>');
        String root = svg.substring(0, end).replaceFirst(" width=\"[^\"]*\"", " width=\"" + width + "\"")
                .replaceFirst(" height=\"[^\"]*\"", " height=\"" + height + "\"");
        return root + svg.substring(end);
    }

    static String stripXmlDeclaration(String svg) {
        return svg.startsWith("<?xml") ? svg.substring(svg.indexOf("?>") + 2).strip() : svg;
    }
}
