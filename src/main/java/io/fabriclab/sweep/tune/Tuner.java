package io.fabriclab.sweep.tune;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import org.apache.commons.math3.stat.inference.TTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.InputException;
import io.fabriclab.io.InputProblem;
import io.fabriclab.io.JsonInput;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.sweep.RunRow;
import io.fabriclab.sweep.RunSpec;
import io.fabriclab.sweep.SweepMetrics;
import io.fabriclab.sweep.SweepPlan;
import io.fabriclab.sweep.SweepRunner;
import io.fabriclab.sweep.SweepSummary;
import io.fabriclab.topology.HeadroomCalculator;

/**
 * Searches a scenario's congestion-control thresholds for an objective under constraints
 * (docs/sweep.md, "Tuner"): ECN Kmin, Kmax (as a multiple of Kmin, so Kmin < Kmax always) and Pmax
 * of one traffic class, PFC XOFF and XON (as a fraction of XOFF), and DCQCN's g and additive
 * increase. The search is Powell's BOBYQA (Apache Commons Math) over the knobs scaled to [0, 1]
 * (log scale for the byte and rate knobs), starting from the scenario's own values; each candidate
 * is run on every search seed and scored by its mean objective, a candidate that breaks a
 * constraint on any seed being penalized. The best feasible candidate and the start are then run
 * on hold-out seeds the search never saw, and compared with Welch's t-test.
 */
public final class Tuner {
    private static final ObjectMapper JSON = JsonInput.jsonMapper(64L * 1024 * 1024);

    /** A knob: its name, the scenario path it sets, bounds, scale and the start value. */
    public record Knob(String name, String path, double lo, double hi, boolean log, boolean integral, double start,
                       String why) {
        double toUnit(double v) {
            double u = log ? (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) : (v - lo) / (hi - lo);
            return Math.max(0, Math.min(1, u));
        }

        double fromUnit(double u) {
            double c = Math.max(0, Math.min(1, u));
            double v = log ? Math.exp(Math.log(lo) + c * (Math.log(hi) - Math.log(lo))) : lo + c * (hi - lo);
            return integral ? Math.round(v) : v;
        }
    }

    /** What to optimize, under which constraints, with which budget and seeds. */
    public record Settings(String objective, boolean minimize, List<SweepPlan.Constraint> constraints, int budget,
                           List<Long> searchSeeds, List<Long> holdoutSeeds, int trafficClass, int workers,
                           io.fabriclab.sim.Engine engine) {
        public Settings {
            engine = engine == null ? io.fabriclab.sim.Engine.PACKET : engine;
            if (engine != io.fabriclab.sim.Engine.PACKET) {
                throw new IllegalArgumentException(FLOW_REFUSED);
            }
        }

        /** On the packet engine. */
        public Settings(String objective, boolean minimize, List<SweepPlan.Constraint> constraints, int budget,
                        List<Long> searchSeeds, List<Long> holdoutSeeds, int trafficClass, int workers) {
            this(objective, minimize, constraints, budget, searchSeeds, holdoutSeeds, trafficClass, workers,
                    io.fabriclab.sim.Engine.PACKET);
        }
    }

    /**
     * Why the tuner runs on the packet engine only: the knobs it turns (ECN's Kmin/Kmax/Pmax, PFC's
     * XOFF/XON, DCQCN) are what the flow engine does not model, so every candidate would score the same.
     */
    public static final String FLOW_REFUSED = "--engine flow: the tuner sets ECN, PFC and DCQCN thresholds, which the flow "
            + "engine does not model (every candidate would give the same figures); allowed: packet";

    /**
     * One candidate over the search seeds.
     *
     * @param values the scenario values it sets, in {@link Outcome#paths()} order
     * @param score  what the optimizer minimized: the mean objective (negated for a maximum), plus a
     *               penalty when a seed broke a constraint or did not run
     */
    public record Evaluation(int index, double[] values, SweepSummary.Stat objective, boolean feasible, double score,
                             List<RunRow> rows) {
    }

    /** The start or the best on the hold-out seeds. */
    public record Holdout(SweepSummary.Stat objective, boolean feasible, double[] samples, List<RunRow> rows) {
    }

    /**
     * @param verdict one sentence: better beyond noise, within noise, or no feasible improvement
     * @param pValue  Welch's two-sided t-test of best vs start on the hold-out seeds (NaN when not computed)
     */
    public record Outcome(Settings settings, List<Knob> knobs, List<String> paths, Evaluation start, Evaluation best,
                          List<Evaluation> trace, Holdout startHoldout, Holdout bestHoldout, double pValue,
                          boolean improved, String verdict, SweepPlan plan, RunSpec bestSpec, List<String> notes) {
    }

    /** Observes the search (evaluation index, budget, best score so far). */
    public interface Listener {
        void evaluated(Evaluation e, int budget, Evaluation best);
    }

    private Tuner() {
    }

    /**
     * The knobs for a scenario: bounds from the fabric (buffer pool per port, MTU, the headroom the
     * calculator requires) and start values from the QoS the scenario runs with.
     */
    public static List<Knob> knobs(Scenario sc, int tc, List<String> notes) {
        Fabric f = sc.fabric();
        Port port = null;
        int ports = 1;
        long pool = Long.MAX_VALUE;
        long neededHeadroom = 0;
        for (Device d : f.switches()) {
            int linked = 0;
            for (Port p : d.ports()) {
                if (f.linkAt(p) != null) {
                    linked++;
                    if (port == null) {
                        port = p;
                    }
                }
            }
            if (linked > 0) {
                ports = Math.max(ports, linked);
                pool = Math.min(pool, sc.qos().qosFor(d.ports().stream().filter(p -> f.linkAt(p) != null).findFirst()
                        .orElseThrow()).buffer().poolBytes() / linked);
            }
        }
        for (Link l : f.links()) {
            neededHeadroom = Math.max(neededHeadroom, HeadroomCalculator.required(l.speedGbps(), l.cableLengthM(),
                    f.mtuBytes()).totalBytes());
        }
        if (port == null) {
            throw new IllegalArgumentException("the fabric has no linked switch port to tune");
        }
        QosProfile q = sc.qos().qosFor(port);
        if (q.pfc().headroomBytes() < neededHeadroom) {
            notes.add(String.format(Locale.ROOT, "PFC headroom %d B is below the %d B the headroom calculator requires on the "
                    + "longest, fastest link: no XOFF can keep that class lossless; raise headroomBytes first",
                    q.pfc().headroomBytes(), neededHeadroom));
        }
        WredEcn curve = q.ecn().classes().getOrDefault(tc, new WredEcn(400_000, 1_600_000, 0.2));
        long frame = f.mtuBytes() + HeadroomCalculator.WIRE_OVERHEAD_BYTES;
        List<Knob> ks = new ArrayList<>();
        String p = "qos.ecn.classes." + tc + ".";
        double kmin = Math.max(1000, curve.kminBytes());
        ks.add(new Knob("Kmin", p + "kminBytes", 1000, Math.max(10_000_000, 2 * kmin), true, true, kmin,
                "1 KB (a packet) to 10 MB"));
        double ratio = Math.max(1.25, Math.min(50, (double) curve.kmaxBytes() / kmin));
        ks.add(new Knob("Kmax/Kmin", p + "kmaxBytes", 1.25, 50, true, false, ratio, "Kmax = Kmin x 1.25 to 50, so Kmin < Kmax"));
        ks.add(new Knob("Pmax", p + "pmax", 0.01, 1, true, false, Math.max(0.01, Math.min(1, curve.pmax())), "1 % to 100 %"));
        if (q.pfc().enabled()) {
            // XOFF: at least 2 frames (one packet must not pause the link), at most the pool's share per
            // linked port of the busiest switch (every ingress may reach XOFF at once).
            double lo = 2.0 * frame;
            double hi = Math.max(lo * 2, pool == Long.MAX_VALUE ? 10_000_000 : pool);
            double xoff = Math.max(lo, Math.min(hi, q.pfc().xoffBytes()));
            if (xoff != q.pfc().xoffBytes()) {
                notes.add("the scenario's XOFF " + q.pfc().xoffBytes() + " B is outside the range searched; the start uses " + (long) xoff);
            }
            ks.add(new Knob("XOFF", "qos.pfc.xoffBytes", lo, hi, true, true, xoff, String.format(Locale.ROOT,
                    "2 frames (%d B) to the buffer pool's share per port (%d B)", (long) lo, (long) hi)));
            double frac = Math.max(0.3, Math.min(0.95, (double) q.pfc().xonBytes() / Math.max(1, q.pfc().xoffBytes())));
            ks.add(new Knob("XON/XOFF", "qos.pfc.xonBytes", 0.3, 0.95, false, false, frac, "XON = XOFF x 0.3 to 0.95"));
        }
        if (q.dcqcn().enabled()) {
            double g = Math.max(1.0 / 1024, Math.min(0.25, q.dcqcn().g()));
            ks.add(new Knob("DCQCN g", "qos.dcqcn.g", 1.0 / 1024, 0.25, true, false, g, "1/1024 to 1/4"));
            double ai = Math.max(1, Math.min(1000, q.dcqcn().rateAiMbps()));
            ks.add(new Knob("DCQCN R_AI Mb/s", "qos.dcqcn.rateAiMbps", 1, 1000, true, false, ai, "1 to 1000 Mb/s"));
        }
        return ks;
    }

    /** The scenario values (JSON literals, paths order) of knob values: Kmax and XON from their ratios. */
    static List<String> literals(List<Knob> ks, double[] v) {
        List<String> out = new ArrayList<>();
        double kmin = 0;
        double xoff = 0;
        for (int i = 0; i < ks.size(); i++) {
            Knob k = ks.get(i);
            double x = v[i];
            switch (k.name()) {
                case "Kmin" -> kmin = x;
                case "Kmax/Kmin" -> x = Math.max(kmin + 1, Math.round(kmin * x));
                case "XOFF" -> xoff = x;
                case "XON/XOFF" -> x = Math.min(xoff - 1, Math.round(xoff * x));
                default -> {
                }
            }
            boolean integral = k.integral() || k.name().equals("Kmax/Kmin") || k.name().equals("XON/XOFF");
            out.add(integral ? Long.toString(Math.round(x)) : num(x));
        }
        return out;
    }

    private static String num(double x) {
        return new java.math.BigDecimal(x).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    }

    /**
     * Tunes a scenario file; run files are kept under {@code dir/runs} (a second call reuses them).
     *
     * @throws InputException when the scenario cannot be read or tuned
     */
    public static Outcome tune(Path scenarioFile, Settings s, Path dir, Listener listener) throws InputException, IOException {
        if (!SweepMetrics.exists(s.objective())) {
            throw InputException.of("--objective", "$", s.objective(), "unknown metric", String.join(", ", SweepMetrics.NAMES));
        }
        Scenario sc;
        try {
            sc = ScenarioJson.read(scenarioFile, FabricReader.FILES);
        } catch (io.fabriclab.io.ScenarioException e) {
            throw new InputException(e.problems().isEmpty()
                    ? List.of(new InputProblem(scenarioFile.toString(), "$", null, e.getMessage(), null)) : e.problems());
        }
        List<String> notes = new ArrayList<>();
        List<Knob> knobs;
        try {
            knobs = knobs(sc, s.trafficClass(), notes);
        } catch (IllegalArgumentException e) {
            throw InputException.of(scenarioFile.toString(), "$.fabric", null, e.getMessage(), "a fabric with switches");
        }
        SweepPlan plan = plan(scenarioFile, knobs, s);
        List<String> paths = plan.parameterPaths();
        Files.createDirectories(dir.resolve(SweepRunner.RUNS_DIR));
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, s.workers()), r -> {
            Thread t = new Thread(r, "tune-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Evaluation> trace = new ArrayList<>();
            Evaluation[] best = new Evaluation[1];
            double[] x0 = new double[knobs.size()];
            double[] start = new double[knobs.size()];
            for (int i = 0; i < knobs.size(); i++) {
                x0[i] = knobs.get(i).toUnit(knobs.get(i).start());
                start[i] = knobs.get(i).fromUnit(x0[i]);
            }
            // BOBYQA starts from 2n+1 interpolation points before it moves, so with the start the
            // search needs 2n+2 evaluations at least: a smaller budget is raised, said in a note,
            // and the progress counts against the budget actually spent (it read "17/12").
            int n = knobs.size();
            int evaluations = s.budget() > 1 ? Math.max(s.budget(), 2 * n + 3) : 1;
            if (evaluations > s.budget()) {
                notes.add("budget raised from " + s.budget() + " to " + evaluations + " evaluations: the search (BOBYQA)"
                        + " needs 2n+1 = " + (2 * n + 1) + " points for its " + n + " settings, plus the start");
            }
            Evaluation first = evaluate(plan, knobs, start, 0, s, dir, pool, Double.NaN);
            trace.add(first);
            best[0] = first;
            if (listener != null) {
                listener.evaluated(first, evaluations, first);
            }
            double penaltyBase = Math.abs(first.objective().mean()) + 1;
            IOException[] failure = new IOException[1];
            ObjectiveFunction f = new ObjectiveFunction(u -> {
                double[] v = new double[knobs.size()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = knobs.get(i).fromUnit(u[i]);
                }
                try {
                    Evaluation e = evaluate(plan, knobs, v, trace.size(), s, dir, pool, penaltyBase);
                    trace.add(e);
                    if (e.feasible() && (!best[0].feasible() || e.score() < best[0].score())) {
                        best[0] = e;
                    }
                    if (listener != null) {
                        listener.evaluated(e, evaluations, best[0]);
                    }
                    return e.score();
                } catch (IOException ex) {
                    failure[0] = ex;
                    throw new IllegalStateException(ex);
                }
            });
            if (evaluations > 1) {
                try {
                    // 2n+1 interpolation points (Powell's recommendation); trust region from 0.25 of the
                    // unit box down to 1e-3 (0.1 % of a knob's range, below any seed-to-seed difference).
                    // MaxEval counts the optimizer's evaluations: all but the start's.
                    new BOBYQAOptimizer(2 * n + 1, 0.25, 1e-3).optimize(new MaxEval(evaluations - 1), f,
                            GoalType.MINIMIZE, new InitialGuess(x0), new SimpleBounds(new double[n], ones(n)));
                } catch (TooManyEvaluationsException e) {
                    // The budget is spent: the best feasible candidate seen is the answer.
                } catch (IllegalStateException e) {
                    if (failure[0] != null) {
                        throw failure[0];
                    }
                    throw e;
                }
            }
            Evaluation b = best[0];
            Holdout hs = holdout(plan, knobs, first.values(), s, dir, pool, -1);
            Holdout hb = b == first ? hs : holdout(plan, knobs, b.values(), s, dir, pool, -2);
            double p = Double.NaN;
            boolean improved = false;
            String verdict;
            if (b == first) {
                verdict = "no feasible candidate beat the start on the search seeds: keep the scenario's thresholds";
            } else if (!hb.feasible()) {
                verdict = "the best candidate breaks a constraint on a hold-out seed: not recommended; keep the scenario's thresholds";
            } else {
                double gain = s.minimize() ? hs.objective().mean() - hb.objective().mean() : hb.objective().mean() - hs.objective().mean();
                if (hs.samples().length >= 2 && hb.samples().length >= 2) {
                    p = variance(hs.samples()) + variance(hb.samples()) == 0 ? (gain != 0 ? 0 : 1)
                            : new TTest().tTest(hs.samples(), hb.samples());
                }
                if (gain > 0 && p < 0.05) {
                    improved = true;
                    verdict = String.format(Locale.ROOT, "better than the start beyond noise on %d hold-out seeds: %s %s -> %s "
                            + "(Welch t-test p = %.2g)%s", hs.samples().length, s.objective(),
                            io.fabriclab.sweep.SweepSummary.plain(hs.objective().mean()),
                            io.fabriclab.sweep.SweepSummary.plain(hb.objective().mean()), p,
                            hs.feasible() ? "" : "; the start also breaks a constraint there");
                } else if (!hs.feasible()) {
                    improved = true;
                    verdict = "the start breaks a constraint on the hold-out seeds and the best does not: recommended for "
                            + "feasibility; its objective is within noise of the start's (p = " + String.format(Locale.ROOT, "%.2g", p) + ")";
                } else {
                    verdict = String.format(Locale.ROOT, "within noise of the start on %d hold-out seeds: %s %s vs %s "
                            + "(Welch t-test p = %.2g); keep the scenario's thresholds", hs.samples().length, s.objective(),
                            io.fabriclab.sweep.SweepSummary.plain(hs.objective().mean()),
                            io.fabriclab.sweep.SweepSummary.plain(hb.objective().mean()), p);
                }
            }
            RunSpec bestSpec = plan.runWith(b.index(), literals(knobs, b.values()), 0, s.searchSeeds().get(0));
            return new Outcome(s, knobs, paths, first, b, List.copyOf(trace), hs, hb, p, improved, verdict, plan, bestSpec,
                    List.copyOf(notes));
        } finally {
            pool.shutdownNow();
        }
    }

    private static double variance(double[] xs) {
        return new org.apache.commons.math3.stat.descriptive.moment.Variance().evaluate(xs);
    }

    private static double[] ones(int n) {
        double[] o = new double[n];
        java.util.Arrays.fill(o, 1);
        return o;
    }

    /**
     * The in-memory sweep the candidates are runs of: the scenario inline (its fabric path made
     * absolute), every knob's path present (missing QoS override objects added) at its start value.
     */
    static SweepPlan plan(Path scenarioFile, List<Knob> knobs, Settings s) throws InputException, IOException {
        ObjectNode sc = (ObjectNode) JSON.readTree(Files.readString(scenarioFile, StandardCharsets.UTF_8));
        Path dir = scenarioFile.toAbsolutePath().getParent();
        JsonNode fab = sc.get("fabric");
        if (fab != null && fab.isTextual()) {
            sc.put("fabric", dir.resolve(fab.asText()).normalize().toString());
        }
        ObjectNode qos = sc.has("qos") && sc.get("qos").isObject() ? (ObjectNode) sc.get("qos") : sc.putObject("qos");
        List<String> starts = literals(knobs, knobs.stream().mapToDouble(k -> k.fromUnit(k.toUnit(k.start()))).toArray());
        for (int i = 0; i < knobs.size(); i++) {
            String[] segs = knobs.get(i).path().split("\\.");
            ObjectNode node = qos;
            for (int k = 1; k < segs.length - 1; k++) {
                node = node.has(segs[k]) && node.get(segs[k]).isObject() ? (ObjectNode) node.get(segs[k]) : node.putObject(segs[k]);
            }
            node.set(segs[segs.length - 1], JSON.readTree(starts.get(i)));
        }
        ObjectNode sweep = JSON.createObjectNode();
        sweep.put("schemaVersion", 1);
        sweep.put("name", "tune " + scenarioFile.getFileName());
        sweep.set("scenario", sc);
        ArrayNode ps = sweep.putArray("parameters");
        for (int i = 0; i < knobs.size(); i++) {
            ps.addObject().put("path", knobs.get(i).path()).put("name", knobs.get(i).name())
                    .set("values", JSON.createArrayNode().add(JSON.readTree(starts.get(i))));
        }
        sweep.put("engine", s.engine().jsonName());
        ArrayNode seeds = sweep.putArray("seeds");
        s.searchSeeds().forEach(seeds::add);
        ArrayNode ms = sweep.putArray("metrics");
        ms.add(s.objective());
        ArrayNode cs = sweep.putArray("constraints");
        for (SweepPlan.Constraint c : s.constraints()) {
            ObjectNode co = cs.addObject().put("metric", c.metric());
            if (c.min() != null) {
                co.put("min", c.min());
            }
            if (c.max() != null) {
                co.put("max", c.max());
            }
        }
        return SweepPlan.parse(JSON.writeValueAsString(sweep), scenarioFile.toString(), dir, false);
    }

    static Evaluation evaluate(SweepPlan plan, List<Knob> knobs, double[] v, int index, Settings s, Path dir,
                               ExecutorService pool, double penaltyBase) throws IOException {
        List<String> lits = literals(knobs, v);
        List<RunSpec> specs = new ArrayList<>();
        for (int k = 0; k < s.searchSeeds().size(); k++) {
            specs.add(plan.runWith(index, lits, k, s.searchSeeds().get(k)));
        }
        List<RunRow> rows = SweepRunner.runSpecs(specs, dir, pool);
        double[] xs = rows.stream().filter(RunRow::ok).mapToDouble(r -> r.metric(s.objective())).toArray();
        SweepSummary.Stat st = SweepSummary.stat(xs);
        long broken = rows.stream().filter(r -> !SweepSummary.meets(plan, r)).count();
        boolean feasible = broken == 0 && Double.isFinite(st.mean()) && st.n() == rows.size();
        double score = s.minimize() ? st.mean() : -st.mean();
        if (!feasible) {
            double base = Double.isNaN(penaltyBase) ? 1 : penaltyBase;
            score = (Double.isFinite(score) ? score : 0) + base * (1 + broken);
        }
        return new Evaluation(index, v.clone(), st, feasible, score, rows);
    }

    static Holdout holdout(SweepPlan plan, List<Knob> knobs, double[] v, Settings s, Path dir, ExecutorService pool,
                           int label) throws IOException {
        List<String> lits = literals(knobs, v);
        List<RunSpec> specs = new ArrayList<>();
        for (int k = 0; k < s.holdoutSeeds().size(); k++) {
            specs.add(plan.runWith(label, lits, k, s.holdoutSeeds().get(k)));
        }
        List<RunRow> rows = SweepRunner.runSpecs(specs, dir, pool);
        double[] xs = rows.stream().filter(RunRow::ok).mapToDouble(r -> r.metric(s.objective())).toArray();
        boolean feasible = rows.stream().allMatch(r -> SweepSummary.meets(plan, r));
        return new Holdout(SweepSummary.stat(xs), feasible, xs, rows);
    }

    /** The literal scenario values of an evaluation, by path. */
    public static List<String> values(Outcome o, Evaluation e) {
        return literals(o.knobs(), e.values());
    }
}
