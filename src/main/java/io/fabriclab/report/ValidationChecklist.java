package io.fabriclab.report;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.sim.LinkFailure;
import io.fabriclab.sim.SimResults;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.Incast;
import io.fabriclab.workload.Workload;

/**
 * The pre-deployment validation checklist network teams run on a new RoCE fabric (baseline, then
 * synthetic load with incast and microbursts, then AI collectives, then link, leaf and spine
 * failures), each item with the outcome of the simulation runs that cover it. An item no run covers
 * is "not simulated", never passed.
 */
public record ValidationChecklist(List<Item> items) {

    public enum Kind {
        BASELINE("Baseline", "healthy fabric, uniform load (permutation or explicit flows), no incast and no failure"),
        INCAST("Synthetic load: incast", "many senders to one receiver on the lossless priority"),
        MICROBURST("Synthetic load: microbursts", "short bursts that fill a queue faster than it drains"),
        COLLECTIVES("AI collectives", "all-reduce, all-gather, reduce-scatter or all-to-all; completion time and bus bandwidth"),
        LINK_FAILURE("Link failure", "a fabric link fails (or degrades) during traffic; reroute and loss"),
        LEAF_FAILURE("Leaf failure", "every link of a leaf (or rail) switch fails during traffic"),
        SPINE_FAILURE("Spine failure", "every link of a spine (or core) switch fails during traffic");

        private final String title;
        private final String what;

        Kind(String title, String what) {
            this.title = title;
            this.what = what;
        }

        public String title() {
            return title;
        }

        public String what() {
            return what;
        }
    }

    /** One item: the runs that cover it (label, outcome) and the overall status. */
    public record Item(Kind kind, Status status, List<String> runs, String outcome) {
    }

    static ValidationChecklist of(Fabric fabric, List<ReportRun> runs, Map<ReportRun, RunOutcome> outcomes) {
        Map<Kind, List<ReportRun>> covered = new LinkedHashMap<>();
        for (Kind k : Kind.values()) {
            covered.put(k, new ArrayList<>());
        }
        for (ReportRun run : runs) {
            for (Kind k : classify(fabric, run)) {
                covered.get(k).add(run);
            }
        }
        List<Item> items = new ArrayList<>();
        for (Kind k : Kind.values()) {
            List<ReportRun> rs = covered.get(k);
            if (rs.isEmpty()) {
                items.add(new Item(k, Status.NOT_SIMULATED, List.of(),
                        "not simulated: no results given cover it (" + k.what() + ")"));
                continue;
            }
            Status st = Status.PASS;
            List<String> labels = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            for (ReportRun r : rs) {
                RunOutcome o = outcomes.get(r);
                st = st.worse(o.status());
                labels.add(r.label());
                if (text.length() > 0) {
                    text.append(" | ");
                }
                text.append(r.label()).append(": ").append(o.status().label());
                if (!o.reasons().isEmpty()) {
                    text.append(" (").append(String.join("; ", o.reasons())).append(')');
                }
                text.append(". ").append(o.evidence());
            }
            items.add(new Item(k, st, labels, text.toString()));
        }
        return new ValidationChecklist(items);
    }

    /** What a run exercised, from its scenario when readable, else from its results alone. */
    static Set<Kind> classify(Fabric fabric, ReportRun run) {
        Set<Kind> kinds = EnumSet.noneOf(Kind.class);
        boolean failure;
        if (run.scenario() != null) {
            boolean stress = false;
            boolean uniform = false;
            for (Workload w : run.scenario().workloads()) {
                String name = w.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + w.describe().toLowerCase(Locale.ROOT);
                if (name.contains("burst")) {
                    kinds.add(Kind.MICROBURST);
                    stress = true;
                } else if (w instanceof Incast) {
                    kinds.add(Kind.INCAST);
                    stress = true;
                } else if (w instanceof Collective) {
                    kinds.add(Kind.COLLECTIVES);
                } else {
                    uniform = true;
                }
            }
            failure = classifyFailures(run.scenario().fabric(), run.scenario().failures(), kinds);
            if (!failure && uniform && !stress) {
                kinds.add(Kind.BASELINE);
            }
        } else {
            SimResults r = run.results();
            boolean stress = false;
            boolean uniform = false;
            for (SimResults.FlowResult f : r.flows()) {
                String l = f.label() == null ? "" : f.label().toLowerCase(Locale.ROOT);
                if (l.contains("burst")) {
                    kinds.add(Kind.MICROBURST);
                    stress = true;
                } else if (l.equals("incast")) {
                    kinds.add(Kind.INCAST);
                    stress = true;
                } else if (!l.contains(":")) {
                    uniform = true;
                }
            }
            if (!r.collectives().isEmpty()) {
                kinds.add(Kind.COLLECTIVES);
            }
            // Without the scenario, a reroute or a link-down loss is all that shows a failure.
            failure = r.run().reroutes() > 0 || r.summary().linkDownDrops() > 0;
            if (failure) {
                kinds.add(Kind.LINK_FAILURE);
            }
            if (!failure && uniform && !stress) {
                kinds.add(Kind.BASELINE);
            }
        }
        return kinds;
    }

    /** Adds LINK / LEAF / SPINE failure kinds; true when the run failed or degraded anything. */
    private static boolean classifyFailures(Fabric fabric, List<LinkFailure> failures, Set<Kind> kinds) {
        if (failures.isEmpty()) {
            return false;
        }
        Set<Link> down = new HashSet<>();
        for (LinkFailure f : failures) {
            if (f.degradedGbps() > 0) {
                kinds.add(Kind.LINK_FAILURE);
            } else {
                down.add(f.link());
            }
        }
        Set<Link> explained = new HashSet<>();
        for (Device d : fabric.switches()) {
            List<Link> of = fabric.linksOf(d);
            if (!of.isEmpty() && down.containsAll(of)) {
                DeviceRole role = d.role();
                kinds.add(role == DeviceRole.LEAF || role == DeviceRole.RAIL ? Kind.LEAF_FAILURE : Kind.SPINE_FAILURE);
                explained.addAll(of);
            }
        }
        if (!explained.containsAll(down)) {
            kinds.add(Kind.LINK_FAILURE);
        }
        return true;
    }
}
