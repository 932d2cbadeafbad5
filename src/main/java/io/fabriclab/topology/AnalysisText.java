package io.fabriclab.topology;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.NicPairClass;

/**
 * The plain-text analysis a reviewer reads: what `fabriclab analyze` prints and what the editor's
 * Fabric > Analyze shows (same words, same tables), from one {@link FabricAnalysis}.
 */
public final class AnalysisText {
    private AnalysisText() {
    }

    /** The text `fabriclab analyze` prints for {@code a}, naming the fabric's {@code source} (file or name). */
    public static String of(Fabric fabric, String source, FabricAnalysis a, int top) {
        StringWriter sw = new StringWriter();
        PrintWriter out = new PrintWriter(sw);
        print(out, fabric, a, source, top);
        out.flush();
        return sw.toString();
    }

    private static void print(PrintWriter out, Fabric fabric, FabricAnalysis a, String file, int top) {
        FabricAnalysis.Counts c = a.counts();
        out.printf("%s (%s)%n%n", fabric.name(), file);
        TextTable counts = new TextTable("what", "count");
        for (DeviceRole r : DeviceRole.values()) {
            if (r.isSwitch() && c.switchesByRole().getOrDefault(r, 0) > 0) {
                counts.row(r.jsonName() + " switches", c.switchesByRole().get(r));
            }
        }
        counts.row("servers", c.servers()).row("GPUs", c.gpus()).row("NICs", c.nics()).row("links", c.links());
        c.cablesByTier().forEach((tier, n) -> counts.row("cables " + tier, n));
        if (c.linksDown() > 0) {
            counts.row("links down", c.linksDown());
        }
        out.println(counts);

        out.println("Oversubscription (downlink : uplink capacity)");
        TextTable over = new TextTable("tier", "down Gb/s", "up Gb/s", "ratio");
        for (Oversubscription.TierRatio t : a.oversubscription().tiers()) {
            over.row("tier " + t.tier(), t.downGbps(), t.upGbps(), t.label());
        }
        if (a.oversubscription().worstLeaf() != null) {
            Oversubscription.SwitchRatio w = a.oversubscription().worstLeaf();
            over.row("worst leaf " + w.deviceId(), w.downGbps(), w.upGbps(), w.label());
        }
        out.println(over);
        out.printf("Bisection bandwidth: %,.0f Gb/s of %,.0f Gb/s full bisection (%.0f %%)%n%n",
                a.bisection().bandwidthGbps(), a.bisection().idealGbps(), 100 * a.bisection().ratio());

        out.println("ECMP paths between NIC pairs" + (a.failure() == null ? "" : " (after failure of " + a.failure().spec() + ")"));
        TextTable ecmp = new TextTable("NIC pairs", "count", "min", "mean", "max", "unreachable");
        EcmpPathCounter.Summary all = a.ecmp().all();
        ecmp.row("all", all.nicPairs(), all.min(), String.format(Locale.ROOT, "%.1f", all.mean()), all.max(), all.unreachablePairs());
        for (Map.Entry<NicPairClass, EcmpPathCounter.Summary> e : a.ecmp().byClass().entrySet()) {
            EcmpPathCounter.Summary s = e.getValue();
            ecmp.row(e.getKey().label(), s.nicPairs(), s.min(), String.format(Locale.ROOT, "%.1f", s.mean()), s.max(),
                    s.unreachablePairs());
        }
        out.println(ecmp);
        out.printf(Locale.ROOT, "Hops (links NIC to NIC): diameter %d, mean %.2f; NIC pairs by hops: %s%n%n",
                a.hops().diameter(), a.hops().mean(), histogram(a.hops().histogram()));

        switchLatency(out, fabric);

        BillOfMaterials b = a.billOfMaterials();
        out.println("Bill of materials");
        TextTable bom = new TextTable("item", "quantity", "unit price", "cost");
        for (BillOfMaterials.Line l : b.lines()) {
            bom.row(l.description(), BillOfMaterials.quantityText(l), l.priced()
                            ? BillOfMaterials.money(l.unitPrice()) + BillOfMaterials.perUnit(l)
                            : "unpriced", l.priced() ? BillOfMaterials.money(l.cost()) : "-");
        }
        bom.row("total (" + b.currency() + (b.complete() ? ")" : ", unpriced items excluded)"), "", "",
                BillOfMaterials.money(b.total()));
        out.println(bom);
        if (!b.serverModels().isEmpty()) {
            out.println("Servers (not priced; " + BillOfMaterials.NVSWITCH_NOTE + ")");
            for (BillOfMaterials.ServerModel m : b.serverModels()) {
                out.println("  " + m.describe());
            }
            out.println();
        }

        if (a.failureImpact() != null) {
            out.printf("Failure impact of every single link and switch (%d analysed), worst first%n",
                    a.failureImpact().items().size());
            TextTable fi = new TextTable("failed", "kind", "capacity lost Gb/s", "NIC pairs cut off", "worst path drop");
            for (FailureImpact.Item i : a.failureImpact().ranked().stream().limit(top).toList()) {
                fi.row(i.subject(), i.kind().name().toLowerCase(Locale.ROOT), Math.round(i.capacityLostGbps()),
                        i.nicPairsDisconnected(), String.format(Locale.ROOT, "%.0f %%", 100 * i.worstDropFraction()));
            }
            out.println(fi);
        }
        if (a.failure() != null) {
            FailureImpact.Detail d = a.failure().detail();
            out.printf("Failure of %s: %,.0f Gb/s lost, %,d NIC pairs cut off, worst pair loses %.0f %% of its paths, %d switch pairs changed%n%n",
                    a.failure().spec(), d.capacityLostGbps(), d.nicPairsDisconnected(), 100 * d.worstDropFraction(),
                    d.changedPairs().size());
        }

        headroom(out, fabric, a, top);

        DeadlockCheck.Result dl = a.deadlock();
        out.printf("Deadlock check%s: %s (%,d buffer dependencies)%n", dl.failure() == null || dl.failure().isBlank() ? "" : " after " + dl.failure(),
                dl.deadlockFree() ? "no cyclic buffer dependency" : dl.cycles().size() + " cycle(s)", dl.dependencies());
        for (DeadlockCheck.Cycle cy : dl.cycles()) {
            out.printf("  priority %d: %s%n", cy.priority(),
                    String.join(" > ", cy.queues().stream().map(Object::toString).toList()));
        }
        out.println();

        out.println("Findings");
        if (a.findings().isEmpty()) {
            out.println("  none");
        } else {
            // Identical findings (same message and fix) print as one row with a count; many groups of one
            // code (e.g. 32 servers single-homed to 4 different leaves) as one row for the code.
            Map<String, List<Finding.Group>> byCode = new java.util.LinkedHashMap<>();
            for (Finding.Group g : Finding.group(a.findings())) {
                byCode.computeIfAbsent(g.severity() + "/" + g.code(), k -> new ArrayList<>()).add(g);
            }
            TextTable f = new TextTable("severity", "code", "count", "subject", "message", "fix");
            for (List<Finding.Group> groups : byCode.values()) {
                int total = groups.stream().mapToInt(Finding.Group::count).sum();
                List<Finding.Group> shown = groups.size() > 3 ? groups.subList(0, 1) : groups;
                for (Finding.Group g : shown) {
                    String subject = groups.size() > 3
                            ? g.subjects().get(0) + " and " + (total - 1) + " more"
                            : g.subjectsText(3);
                    String message = groups.size() > 3 ? g.message() + " (first of " + total + ")" : g.message();
                    f.row(g.severity().name().toLowerCase(Locale.ROOT), g.code(), groups.size() > 3 ? total : g.count(),
                            subject, message, g.fix());
                }
            }
            out.println(f);
        }
    }

    /** Port-to-port latency of each switch model under each transport (docs/model.md, Transports). */
    private static void switchLatency(PrintWriter out, Fabric fabric) {
        List<FabricSwitchLatency.ModelLatency> rows = FabricSwitchLatency.of(fabric);
        if (rows.isEmpty()) {
            return;
        }
        out.println("Switch port-to-port latency, unloaded (by switch model and transport)");
        TextTable t = new TextTable("switch model", "switches", "RoCEv2", "InfiniBand", "Ultra Ethernet");
        java.util.Set<String> sources = new java.util.LinkedHashSet<>();
        for (FabricSwitchLatency.ModelLatency m : rows) {
            List<String> cells = new ArrayList<>();
            cells.add(m.model());
            cells.add(String.valueOf(m.switches()));
            for (io.fabriclab.model.Transport tr : io.fabriclab.model.Transport.values()) {
                io.fabriclab.model.SwitchLatency.SwitchClass c = m.byTransport().get(tr.ordinal());
                sources.add(m.source(tr));
                cells.add(String.format(Locale.ROOT, "%.2f us %s", m.portToPortPs(tr) / 1e6,
                        c.forwarding() == io.fabriclab.model.SwitchLatency.Forwarding.CUT_THROUGH ? "cut-through" : "store-and-forward"));
            }
            t.row(cells.toArray());
        }
        out.println(t);
        for (String s : sources) {
            out.printf("  %s%n", s);
        }
        out.println();
    }

    /**
     * Every lossless port's need against its configured headroom, one row per class of equal ports, with
     * the interface term and where its figure comes from; then the ports that fall short.
     */
    private static void headroom(PrintWriter out, Fabric fabric, FabricAnalysis a, int top) {
        long shortPorts = a.headroom().stream().filter(HeadroomCalculator.PortHeadroom::shortfall).count();
        out.printf("PFC headroom: %,d lossless ports checked, %,d short of the needed headroom%n", a.headroom().size(),
                shortPorts);
        if (a.headroom().isEmpty()) {
            out.println();
            return;
        }
        out.printf(Locale.ROOT, "needs = 2 x (MTU %,d B + 20 B) + PFC frame 84 B + cable (2 x 5 ns/m) + interface delay of"
                + " both ends + peer response%n", fabric.mtuBytes());
        TextTable t = new TextTable("profile", "speed", "cable", "ports", "needs B", "reserves B", "margin B", "cable B",
                "interface B", "response B", "interface delay from");
        for (HeadroomCalculator.PortClass c : HeadroomCalculator.classes(a.headroom())) {
            HeadroomCalculator.Requirement r = c.required();
            t.row(c.qosProfile(), r.speedGbps() + "G", String.format(Locale.ROOT, "%s m", trim(r.cableLengthM())),
                    c.ports().size(), String.format(Locale.ROOT, "%,d", r.totalBytes()),
                    String.format(Locale.ROOT, "%,d", c.configuredBytes()),
                    String.format(Locale.ROOT, "%+,d", c.marginBytes()),
                    String.format(Locale.ROOT, "%,d", r.cableBytes()), String.format(Locale.ROOT, "%,d", r.interfaceBytes()),
                    String.format(Locale.ROOT, "%,d", r.peerResponseBytes()), r.interfaceSource());
        }
        out.print(t);
        a.headroom().stream().filter(HeadroomCalculator.PortHeadroom::shortfall)
                .sorted(java.util.Comparator.comparingLong(HeadroomCalculator.PortHeadroom::missingBytes).reversed())
                .limit(top).forEach(h -> out.printf(Locale.ROOT, "  short: %s needs %,d B, profile %s reserves %,d B%n",
                        h.port(), h.required().totalBytes(), h.qosProfile(), h.configuredBytes()));
        if (shortPorts > top) {
            out.printf(Locale.ROOT, "  ... and %,d more short ports%n", shortPorts - top);
        }
        out.println();
    }

    /** "2: 224, 4: 768" rather than Java's map text "{2=224, 4=768}". */
    private static String histogram(Map<?, ? extends Number> h) {
        if (h.isEmpty()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        h.forEach((k, v) -> parts.add(k + ": " + String.format(Locale.ROOT, "%,d", v.longValue())));
        return String.join(", ", parts);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
