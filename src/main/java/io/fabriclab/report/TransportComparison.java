package io.fabriclab.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import io.fabriclab.model.Transport;
import io.fabriclab.sim.SimResults;
import io.fabriclab.topology.BillOfMaterials;

/**
 * One scenario under several transports on the same drawing: what each run measured (or that this
 * build does not simulate it) and what the fabric costs built for it. Throughput and cost are also
 * given as a share of InfiniBand's when InfiniBand is in the set (the literature's reference).
 * `fabriclab compare` builds it; the design-review report shows it as "Transport comparison".
 *
 * @param scenarioName the scenario's name
 * @param source       the scenario file
 * @param rows         one per transport, in the order asked for
 */
public record TransportComparison(String scenarioName, String source, List<Row> rows) {

    /** What a transport's row says in place of a figure the simulator did not produce. */
    public static final String NOT_SIMULATED = "not simulated in this build";

    public TransportComparison {
        rows = List.copyOf(rows);
    }

    /**
     * One transport.
     *
     * @param results null when this build does not simulate the transport
     * @param bill    the fabric's bill of materials built for this transport
     */
    public record Row(Transport transport, SimResults results, BillOfMaterials bill) {
        public boolean simulated() {
            return results != null;
        }
    }

    public Optional<Row> row(Transport t) {
        return rows.stream().filter(r -> r.transport() == t).findFirst();
    }

    /** Collective names of every simulated row, in first-seen order. */
    public List<String> collectiveNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Row r : rows) {
            if (r.simulated()) {
                r.results().collectives().forEach(c -> names.add(c.name()));
            }
        }
        return List.copyOf(names);
    }

    /** Nearest-rank percentile of completed flows' FCT in microseconds, NaN when none completed. */
    public static double fctPercentileUs(SimResults r, double p) {
        double[] fct = r.flows().stream().filter(f -> f.fctPs() >= 0).mapToDouble(f -> f.fctPs() / 1e6).sorted().toArray();
        if (fct.length == 0) {
            return Double.NaN;
        }
        return fct[Math.max(0, (int) Math.ceil(p * fct.length) - 1)];
    }

    /**
     * Aggregate goodput in Gb/s: the payload bytes of every completed flow over the span from the
     * first start to the last finish; NaN when no flow completed. Unlike the mean of per-flow
     * throughputs (which rises when some flows finish early and others late, as under an unfair
     * share of one bottleneck), it is what the fabric delivered, bounded by the bottleneck's line
     * rate x the transport's payload efficiency (docs/model.md, Ultra Ethernet in the simulator).
     */
    public static double aggregateGoodputGbps(SimResults r) {
        long bytes = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (SimResults.FlowResult f : r.flows()) {
            if (f.fctPs() >= 0) {
                bytes += f.bytes();
                first = Math.min(first, f.startPs());
                last = Math.max(last, f.finishPs());
            }
        }
        return last > first ? bytes * 8.0 / (last - first) * 1000.0 : Double.NaN;
    }

    /** The table: a header row of transports, then one row per measure (figures as text). */
    public List<String[]> table() {
        List<String[]> out = new ArrayList<>();
        String[] head = new String[rows.size() + 1];
        head[0] = "measure";
        for (int i = 0; i < rows.size(); i++) {
            head[i + 1] = rows.get(i).transport().displayName();
        }
        out.add(head);
        Optional<Row> ib = row(Transport.INFINIBAND).filter(Row::simulated);
        for (String name : collectiveNames()) {
            out.add(measure(name + " busbw", r -> collective(r, name).map(c -> c.timePs() < 0 ? "did not complete"
                    : String.format(Locale.ROOT, "%.2f GB/s", c.busbwGBps())).orElse("-")));
            if (ib.isPresent()) {
                Optional<SimResults.CollectiveResult> ref = collective(ib.get(), name).filter(c -> c.timePs() > 0);
                out.add(measure(name + " busbw, % of InfiniBand", r -> ref.isEmpty() ? "-" : collective(r, name)
                        .filter(c -> c.timePs() > 0).map(c -> pct(c.busbwGBps() / ref.get().busbwGBps())).orElse("-")));
            }
            out.add(measure(name + " completion time", r -> collective(r, name).map(c -> c.timePs() < 0
                    ? "did not complete" : String.format(Locale.ROOT, "%.1f us", c.timePs() / 1e6)).orElse("-")));
        }
        out.add(measure("flows completed", r -> r.results().run().flowsCompleted() + " / " + r.results().run().flows()));
        out.add(measure("FCT p50", r -> us(fctPercentileUs(r.results(), 0.5))));
        out.add(measure("FCT p99", r -> us(fctPercentileUs(r.results(), 0.99))));
        out.add(measure("FCT p99.9", r -> us(fctPercentileUs(r.results(), 0.999))));
        out.add(measure("mean flow throughput", r -> String.format(Locale.ROOT, "%.2f Gb/s",
                r.results().summary().meanThroughputGbps())));
        // No share of InfiniBand's on the mean of per-flow throughputs: it rewards flows finishing
        // unevenly (see aggregateGoodputGbps); the share is on the aggregate goodput below.
        out.add(measure("aggregate goodput", r -> Double.isNaN(aggregateGoodputGbps(r.results())) ? "-"
                : String.format(Locale.ROOT, "%.2f Gb/s", aggregateGoodputGbps(r.results()))));
        if (ib.isPresent() && aggregateGoodputGbps(ib.get().results()) > 0) {
            double ref = aggregateGoodputGbps(ib.get().results());
            out.add(measure("aggregate goodput, % of InfiniBand", r -> Double.isNaN(aggregateGoodputGbps(r.results())) ? "-"
                    : pct(aggregateGoodputGbps(r.results()) / ref)));
        }
        out.add(measure("drops", r -> String.format(Locale.ROOT, "%,d", r.results().summary().drops())));
        out.add(measure("retransmitted", r -> String.format(Locale.ROOT, "%,d B", r.results().summary().retransmittedBytes())));
        out.add(measure("paused or credit-stalled time", r -> String.format(Locale.ROOT, "%.1f us",
                stalledPs(r.results()) / 1e6)));
        out.add(measure("max queue", r -> String.format(Locale.ROOT, "%,d B", r.results().summary().maxQueueBytes())));
        // Cost is static: every transport has one, simulated or not.
        String[] cost = new String[rows.size() + 1];
        cost[0] = "fabric cost";
        for (int i = 0; i < rows.size(); i++) {
            BillOfMaterials b = rows.get(i).bill();
            cost[i + 1] = String.format(Locale.ROOT, "%,.0f %s%s", b.total(), b.currency(), b.complete() ? ""
                    : " (" + b.unpriced().size() + " items unpriced)");
        }
        out.add(cost);
        Optional<Row> ibCost = row(Transport.INFINIBAND).filter(r -> r.bill().complete() && r.bill().total().signum() > 0);
        if (ibCost.isPresent()) {
            BigDecimal ref = ibCost.get().bill().total();
            String[] share = new String[rows.size() + 1];
            share[0] = "fabric cost, % of InfiniBand's";
            for (int i = 0; i < rows.size(); i++) {
                BillOfMaterials b = rows.get(i).bill();
                share[i + 1] = b.complete() ? pct(b.total().doubleValue() / ref.doubleValue()) : "-";
            }
            out.add(share);
        }
        return out;
    }

    /**
     * The comparison as JSON (schemaVersion 1; docs/cli.md, compare): per transport whether it was
     * simulated, its figures (null when not), and its fabric cost; shares of InfiniBand's when
     * InfiniBand is in the set.
     */
    public String json(String fabriclabVersion) {
        com.fasterxml.jackson.databind.ObjectMapper m = io.fabriclab.io.JsonInput.writingMapper();
        com.fasterxml.jackson.databind.node.ObjectNode root = m.createObjectNode();
        root.put("schemaVersion", 1);
        root.put("fabriclabVersion", fabriclabVersion);
        root.put("scenario", scenarioName);
        root.put("file", source);
        Optional<Row> ib = row(Transport.INFINIBAND);
        Optional<Row> ibRun = ib.filter(Row::simulated);
        var arr = root.putArray("transports");
        for (Row r : rows) {
            var o = arr.addObject();
            o.put("transport", r.transport().jsonName());
            o.put("simulated", r.simulated());
            if (!r.simulated()) {
                o.put("note", NOT_SIMULATED);
            } else {
                SimResults res = r.results();
                var cs = o.putArray("collectives");
                for (SimResults.CollectiveResult c : res.collectives()) {
                    var co = cs.addObject();
                    co.put("name", c.name());
                    co.put("kind", c.kind());
                    co.put("completed", c.timePs() >= 0);
                    co.put("busbwGBps", c.busbwGBps());
                    co.put("timeUs", c.timePs() < 0 ? null : c.timePs() / 1e6);
                    Optional<SimResults.CollectiveResult> ref = ibRun.flatMap(x -> collective(x, c.name()))
                            .filter(x -> x.timePs() > 0);
                    if (ref.isPresent() && c.timePs() > 0) {
                        co.put("busbwFractionOfInfiniBand", c.busbwGBps() / ref.get().busbwGBps());
                    }
                }
                o.put("engine", ReportRuns.engine(res));
                o.put("flows", res.run().flows());
                o.put("flowsCompleted", res.run().flowsCompleted());
                o.put("fctP50Us", nanToNull(fctPercentileUs(res, 0.5)));
                o.put("fctP99Us", nanToNull(fctPercentileUs(res, 0.99)));
                o.put("fctP999Us", nanToNull(fctPercentileUs(res, 0.999)));
                o.put("meanFlowThroughputGbps", res.summary().meanThroughputGbps());
                o.put("aggregateGoodputGbps", nanToNull(aggregateGoodputGbps(res)));
                double ibGoodput = ibRun.map(x -> aggregateGoodputGbps(x.results())).orElse(Double.NaN);
                if (ibGoodput > 0 && !Double.isNaN(aggregateGoodputGbps(res))) {
                    o.put("aggregateGoodputFractionOfInfiniBand", aggregateGoodputGbps(res) / ibGoodput);
                }
                o.put("drops", res.summary().drops());
                o.put("retransmittedBytes", res.summary().retransmittedBytes());
                o.put("pausedOrCreditStalledUs", stalledPs(res) / 1e6);
                o.put("maxQueueBytes", res.summary().maxQueueBytes());
            }
            var cost = o.putObject("cost");
            cost.put("currency", r.bill().currency());
            cost.put("total", r.bill().total());
            cost.put("complete", r.bill().complete());
            var un = cost.putArray("unpriced");
            r.bill().unpriced().forEach(un::add);
            if (ib.isPresent() && ib.get().bill().complete() && r.bill().complete() && ib.get().bill().total().signum() > 0) {
                cost.put("fractionOfInfiniBand", r.bill().total().doubleValue() / ib.get().bill().total().doubleValue());
            }
        }
        try {
            return m.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * PFC paused time (RoCEv2) plus credit-stalled time (InfiniBand: a packet ready that the peer's
     * credits did not cover), each summed over ports and classes.
     */
    public static long stalledPs(SimResults r) {
        return r.summary().pausedPs() + r.credits().stream().mapToLong(SimResults.CreditResult::creditStalledPs).sum();
    }

    private static Double nanToNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private String[] measure(String name, java.util.function.Function<Row, String> f) {
        String[] row = new String[rows.size() + 1];
        row[0] = name;
        for (int i = 0; i < rows.size(); i++) {
            row[i + 1] = rows.get(i).simulated() ? f.apply(rows.get(i)) : NOT_SIMULATED;
        }
        return row;
    }

    private static Optional<SimResults.CollectiveResult> collective(Row r, String name) {
        return r.results().collectives().stream().filter(c -> c.name().equals(name)).findFirst();
    }

    private static String us(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f us", v);
    }

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
    }
}
