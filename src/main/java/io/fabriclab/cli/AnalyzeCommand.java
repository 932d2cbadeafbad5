package io.fabriclab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.AnalysisText;
import io.fabriclab.topology.FabricAnalysis;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `fabriclab analyze FILE [--json] [--fail LINK|DEVICE]`: the numbers a design review asks for first. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Static analysis of a fabric: counts, oversubscription, bisection bandwidth, ECMP path counts,",
                "hop counts, bill of materials, failure impact of every link and switch, PFC headroom,",
                "deadlock check and lint findings. Exit 1 when a finding is at error level."})
public final class AnalyzeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Fabric file (.json or containerlab .clab.yml).")
    Path file;

    @Option(names = "--json", description = "Print the stable JSON document (docs/cli.md) instead of tables.")
    boolean json;

    @CommandLine.Mixin
    AnalysisOptions analysis = new AnalysisOptions();

    @Option(names = "--top", defaultValue = "10", paramLabel = "N", description = "Rows of the worst-failures table (default: ${DEFAULT-VALUE}).")
    int top;

    /** Payload per packet of each transport on this fabric: the Ethernet ones at its MTU, InfiniBand at its own. */
    static int payloadBytes(io.fabriclab.model.Transport t, int fabricMtu) {
        return switch (t) {
            case ROCEV2 -> io.fabriclab.sim.RoceFraming.maxPayload(fabricMtu);
            case ULTRA_ETHERNET -> io.fabriclab.sim.UecFraming.maxPayload(fabricMtu);
            case INFINIBAND -> io.fabriclab.sim.IbFraming.MTUS.stream().filter(m -> m <= fabricMtu)
                    .reduce((a, b) -> b).orElseThrow(() -> new IllegalArgumentException("MTU below 256 B"));
        };
    }

    /** The static payload efficiency of each transport (docs/model.md, Transports). */
    static String payloadEfficiency(Fabric fabric) {
        io.fabriclab.topology.TextTable t = new io.fabriclab.topology.TextTable("transport", "payload B/packet",
                "data only", "ring direction (ACK per packet)");
        for (io.fabriclab.model.Transport tr : io.fabriclab.model.Transport.values()) {
            io.fabriclab.sim.TransportProfile p = io.fabriclab.sim.TransportProfile.of(tr);
            int payload;
            try {
                payload = payloadBytes(tr, fabric.mtuBytes());
            } catch (IllegalArgumentException e) {
                t.row(tr.displayName(), "-", "MTU too small", "-");
                continue;
            }
            t.row(tr.displayName(), payload, String.format(java.util.Locale.ROOT, "%.2f %%", 100 * p.payloadEfficiency(payload)),
                    String.format(java.util.Locale.ROOT, "%.2f %%", 100 * p.ringPayloadEfficiency(payload)));
        }
        return "\nPayload efficiency by transport (MTU " + fabric.mtuBytes() + " B; InfiniBand at its own MTU of 4096 B)\n"
                + t + "\n";
    }

    /**
     * InfiniBand credit loops under each subnet-manager routing engine (docs/model.md, Credit-loop
     * deadlock): the cycles of credit dependencies on one data VL, and the VLs the engine's routes
     * would need for the escape at down-up turns.
     */
    static String creditLoops(Fabric fabric) {
        return creditLoops(creditLoopsByEngine(fabric));
    }

    static String creditLoops(java.util.List<CreditLoops> byEngine) {
        io.fabriclab.topology.TextTable t = new io.fabriclab.topology.TextTable("engine", "credit loops on 1 VL",
                "VLs for the escape");
        for (CreditLoops c : byEngine) {
            String name = c.engine().jsonName() + (c.fellBackToMinhop() ? " (not a fat-tree: minhop)" : "");
            io.fabriclab.topology.CreditLoopCheck.Result res = c.result();
            String loops = res.deadlockFree() ? "none" : res.cycles().size() + ", e.g. " + String.join(" -> ", res.cycles().get(0));
            t.row(name, loops, res.vlsNeeded());
        }
        return "\nInfiniBand credit loops by subnet-manager routing engine (routing.ibEngine; one data VL)\n" + t + "\n";
    }

    /** The credit-loop check of one engine on one data VL; {@code fellBackToMinhop}: ftree on a fabric that is no fat-tree. */
    record CreditLoops(io.fabriclab.routing.IbRoutingEngine engine, boolean fellBackToMinhop,
                       io.fabriclab.topology.CreditLoopCheck.Result result) {
    }

    /** Every subnet-manager engine's tables checked for credit loops on one data VL (text and JSON show the same). */
    static java.util.List<CreditLoops> creditLoopsByEngine(Fabric fabric) {
        return creditLoopsByEngine(fabric, FabricAnalysis.Progress.NONE);
    }

    /**
     * As above, telling {@code progress} as each engine starts ("ibCreditLoops minhop"). Their
     * forwarding tables have an entry per switch and destination NIC, so they are streamed to the
     * check a destination at a time and never kept whole (docs/performance.md, Analysis at cluster
     * scale).
     */
    static java.util.List<CreditLoops> creditLoopsByEngine(Fabric fabric, FabricAnalysis.Progress progress) {
        io.fabriclab.routing.Routing r = io.fabriclab.routing.Routing.compute(fabric);
        java.util.List<CreditLoops> out = new java.util.ArrayList<>();
        io.fabriclab.routing.IbRoutingEngine[] engines = io.fabriclab.routing.IbRoutingEngine.values();
        for (io.fabriclab.routing.IbRoutingEngine e : engines) {
            progress.phase("ibCreditLoops " + e.jsonName(), e.ordinal(), engines.length);
            io.fabriclab.routing.LinearForwardingTables tables = io.fabriclab.routing.LinearForwardingTables.streamed(r, e);
            int total = tables.destinations();
            int step = Math.max(1, total / 100);
            io.fabriclab.routing.LinearForwardingTables.ColumnReader told = (j, dst, col) -> {
                if (j % step == 0) {
                    progress.within((double) j / total);
                }
            };
            out.add(new CreditLoops(e, tables.engine() != e, io.fabriclab.topology.CreditLoopCheck.check(r, tables, 1, told)));
        }
        return out;
    }

    @Override
    public Integer call() throws Exception {
        AnalysisProgress.reading(spec.commandLine().getErr(), file);
        Fabric fabric = Inputs.fabric(file);
        FabricAnalysis.Options opt = analysis.toOptions(fabric);
        AnalysisProgress progress = AnalysisProgress.of(spec.commandLine().getErr(), fabric);
        FabricAnalysis a = FabricAnalysis.run(fabric, opt, progress.steps(0));
        java.util.List<CreditLoops> loops = creditLoopsByEngine(fabric, progress.steps(1));
        progress.done();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.print(AnalysisJson.render(fabric, file.toString(), a, top, loops));
        } else {
            out.print(AnalysisText.of(fabric, file.toString(), a, top));
            out.print(payloadEfficiency(fabric));
            out.print(creditLoops(loops));
        }
        out.flush();
        return a.hasErrors() ? ExitCode.FINDINGS : ExitCode.OK;
    }
}
