package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.Transport;
import io.fabriclab.routing.Routing;
import io.fabriclab.workload.FlowSpec;

/**
 * A closer look at one part of a flow-level run with the packet engine (docs/model.md, "Focus
 * run"): the network flows whose flow-run path crosses the focus (a link, a device and its links,
 * a scalable unit or a pod and their links) run packet by packet, each on the ECMP path it took in
 * the flow run (its UDP source port given to the packet engine, {@link Simulator#setUdpSourcePorts})
 * and posted when the flow run started it (its dependencies cut); the rest of the cluster's traffic
 * is background: on every link direction the packet flows may cross, the share of the line rate
 * the other flows used in the flow run, window by window, is taken from the packet flows
 * ({@link Simulator#setBackground}).
 *
 * <p>Background per link direction: the flow run is run again (the same inputs give the same
 * run) and every other flow's rate is followed ({@link FlowEngine#setRateListener}); at every
 * change, the sum over the other flows crossing the direction of rate x share of it (1 on an ECMP
 * path, a sprayed flow's even split) over the line rate, at most n / (n + 1) with n those flows
 * moving then (max-min fairness gives one more flow at least 1 / (n + 1) of a link n flows
 * saturate; it matters only when a packet flow runs at a time the flow run did not have it).
 * Background takes capacity; it does not queue, pause, get marked or carry ACKs.
 */
public final class FocusRun {
    private FocusRun() {
    }

    /** What a focus names. */
    public enum Kind {
        /** One link, both directions. */
        LINK("link"),
        /** A device (switch or server) and every link at it. */
        DEVICE("device"),
        /** A scalable unit: the devices of that unit number and their links. */
        UNIT("unit"),
        /** A pod of a three-tier fabric: its devices and their links. */
        POD("pod");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    /** A focus: its name as given, what it names and its links. */
    public record Focus(String name, Kind kind, List<Link> links) {
        public Focus {
            links = List.copyOf(links);
        }

        /** "link leaf0:p1--spine0:p1", "unit 3 (24 links)". */
        public String describe() {
            return kind == Kind.LINK ? "link " + links.getFirst().id()
                    : kind.jsonName() + " " + name.replaceFirst("(?i)^(unit|pod)\\s*", "") + " (" + links.size() + " links)";
        }
    }

    /** The forms a focus may take, for error messages. */
    public static final String FORMS = "a link id (devA:portA--devB:portB), one end of a link (device:port), "
            + "\"from -> to\" (two ports, as the flow run names its busy links), a device id (the device and its links), "
            + "\"unit N\" (a scalable unit and its links, numbered from 1 as drawn) or \"pod N\"";

    /**
     * The focus {@code name} names in {@code fabric}.
     *
     * @throws IllegalArgumentException naming {@code name}, the forms allowed and a few of the fabric's names
     */
    public static Focus resolve(Fabric fabric, String name) {
        String n = name == null ? "" : name.strip();
        // "from -> to", as packetLevelCandidates names a busy link ("... 95 % busy" after it is ignored).
        int arrow = n.indexOf("->");
        if (arrow > 0) {
            String from = n.substring(0, arrow).strip();
            String to = n.substring(arrow + 2).strip().split("\\s+")[0];
            Port a = fabric.port(from);
            Port b = fabric.port(to);
            Link l = a == null ? null : fabric.linkAt(a);
            if (l != null && b != null && l.opposite(a) == b) {
                return new Focus(n, Kind.LINK, List.of(l));
            }
            throw unknown(fabric, name, "no link from " + from + " to " + to);
        }
        if (n.contains("--")) {
            Link l = fabric.link(n);
            if (l != null) {
                return new Focus(n, Kind.LINK, List.of(l));
            }
            throw unknown(fabric, name, "no link with that id");
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)(unit|pod)\\s*(\\d+)").matcher(n);
        if (m.matches()) {
            boolean unit = m.group(1).equalsIgnoreCase("unit");
            // Numbered from 1 as the drawing and the generators' names (su1, pod01) number them;
            // the model stores them from 0 (Device.unit, Device.pod).
            int k = Integer.parseInt(m.group(2)) - 1;
            if (k < 0) {
                throw unknown(fabric, name, (unit ? "units" : "pods") + " are numbered from 1, as the drawing numbers them");
            }
            Set<Link> links = new LinkedHashSet<>();
            for (Device d : fabric.devices()) {
                Integer v = unit ? d.unit() : d.pod();
                if (v != null && v == k) {
                    links.addAll(fabric.linksOf(d));
                }
            }
            if (links.isEmpty()) {
                throw unknown(fabric, name, "no device of " + (unit ? "unit " : "pod ") + (k + 1) + " has a link");
            }
            return new Focus(n, unit ? Kind.UNIT : Kind.POD, sorted(fabric, links));
        }
        if (n.contains(":")) {
            Port p = fabric.port(n);
            Link l = p == null ? null : fabric.linkAt(p);
            if (l != null) {
                return new Focus(n, Kind.LINK, List.of(l));
            }
            throw unknown(fabric, name, p == null ? "no such port" : "the port has no link");
        }
        Device d = fabric.device(n);
        if (d != null && !fabric.linksOf(d).isEmpty()) {
            return new Focus(n, Kind.DEVICE, sorted(fabric, fabric.linksOf(d)));
        }
        throw unknown(fabric, name, d == null ? "no such link, port, device, unit or pod" : "the device has no link");
    }

    private static List<Link> sorted(Fabric fabric, Collection<Link> links) {
        List<Link> out = new ArrayList<>();
        for (Link l : fabric.links()) {
            if (links.contains(l)) {
                out.add(l);
            }
        }
        return out;
    }

    private static IllegalArgumentException unknown(Fabric fabric, String name, String why) {
        List<String> examples = new ArrayList<>();
        fabric.switches().stream().limit(2).forEach(d -> examples.add(d.id()));
        fabric.links().stream().limit(1).forEach(l -> examples.add(l.id()));
        fabric.devices().stream().filter(d -> d.unit() != null).findFirst().ifPresent(d -> examples.add("unit " + (d.unit() + 1)));
        return new IllegalArgumentException("focus '" + name + "' in fabric " + fabric.name() + ": " + why
                + "; allowed: " + FORMS + (examples.isEmpty() ? "" : ", e.g. " + String.join(", ", examples)));
    }

    /**
     * Background on one link direction: the direction {@code from} sends into, from {@code atPs[i]}
     * on {@code share[i]} of its line rate; {@code flows} other flows of the flow run crossed it.
     */
    public record Background(Port from, String fromRef, String toRef, long[] atPs, double[] share, int flows) {
        /** The largest share of the schedule. */
        public double peakShare() {
            double m = 0;
            for (double s : share) {
                m = Math.max(m, s);
            }
            return m;
        }
    }

    /**
     * What the packet engine runs: the focus flows (posted at their flow-run start, no
     * dependencies), which flow of the flow run each is ({@code flowRunIds}), their UDP source
     * ports there, and the background on the link directions they may cross. {@code sprayed}:
     * the flow run sprayed (Ultra Ethernet or a per-packet routing mode), so paths are the even
     * split over the equal-cost paths and the ports do not choose them.
     */
    public record Plan(Focus focus, List<FlowSpec> flows, int[] flowRunIds, int[] udpSourcePorts,
                       List<Background> background, boolean sprayed) {
        public Plan {
            flows = List.copyOf(flows);
            background = List.copyOf(background);
        }

        /** Gives {@code sim} (built over {@link #flows}) the flow run's UDP ports and the background. */
        public void apply(Simulator sim) {
            sim.setUdpSourcePorts(udpSourcePorts);
            for (Background b : background) {
                sim.setBackground(b.from(), b.atPs(), b.share());
            }
        }
    }

    /**
     * What times a frame's way through the fabric (as the flow engine times a packet that did not
     * wait): the run's transport (its framing, each switch model's forwarding) and every switch's
     * port-to-port latency when the scenario sets one ({@code switchLatencyPs} >= 0), else -1 for
     * each switch model's own ({@code model.SwitchLatency}).
     */
    public record Timing(Transport transport, long switchLatencyPs) {
        public Timing {
            java.util.Objects.requireNonNull(transport, "transport");
        }
    }

    /**
     * The plan of a focus run of {@code focus} after {@code flowRun}, the flow-level run of
     * {@code specs} on {@code fabric}; {@code rerun} builds that flow-level run again (the same
     * inputs), which is run once more, listened to, when other flows share the packet flows'
     * link directions: their rates over time are the background.
     *
     * @throws IllegalArgumentException when {@code flowRun} is not a flow-level run of these specs,
     *                                  or no flow of it crosses the focus
     */
    public static Plan plan(Fabric fabric, List<FlowSpec> specs, SimResults flowRun, Focus focus, Timing timing,
                            java.util.function.Supplier<FlowEngine> rerun) {
        if (!Engine.FLOW.jsonName().equals(flowRun.run().engine())) {
            throw new IllegalArgumentException("a focus run follows a flow-level run; this one is "
                    + flowRun.run().engine());
        }
        List<FlowSpec> network = new ArrayList<>();
        for (FlowSpec s : specs) {
            if (s.network()) {
                network.add(s);
            }
        }
        List<SimResults.FlowResult> results = flowRun.flows();
        if (results.size() != network.size()) {
            throw new IllegalArgumentException("the flow run has " + results.size() + " network flows, the workload "
                    + network.size() + ": not a run of this workload");
        }
        boolean sprayed = !RoutingMode.ECMP.jsonName().equals(flowRun.run().routing());
        Routing routing = sprayed ? Routing.compute(fabric) : null;
        Map<Long, Map<Port, double[]>> sprayCache = new HashMap<>();
        Set<Link> focusLinks = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        focusLinks.addAll(focus.links());

        // A flow's link directions with its share of each and the time its first frame takes to
        // reach each (egress port -> {share, ps}); computed once to choose the focus flows and once
        // more for the others, and kept only where it matters (a whole cluster has millions of flows).
        FocusPaths hops = new FocusPaths(fabric, timing);
        java.util.function.IntFunction<Map<Port, double[]>> use = f -> sprayed
                ? hops.sprayUse(routing, network.get(f), sprayCache) : hops.ecmpUse(results.get(f));
        List<Integer> chosen = new ArrayList<>();
        List<Map<Port, double[]>> chosenUses = new ArrayList<>();
        for (int f = 0; f < results.size(); f++) {
            if (!sprayed && !hops.crosses(results.get(f), focusLinks, null)) {
                continue; // an ECMP flow's path read without timing it
            }
            Map<Port, double[]> u = use.apply(f);
            for (Port p : u.keySet()) {
                if (focusLinks.contains(hops.link(p))) {
                    chosen.add(f);
                    chosenUses.add(u);
                    break;
                }
            }
        }
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("focus " + focus.describe() + ": no network flow of the flow run crosses it");
        }
        boolean[] inFocus = new boolean[results.size()];
        List<FlowSpec> flows = new ArrayList<>(chosen.size());
        int[] ids = new int[chosen.size()];
        int[] udp = new int[chosen.size()];
        Set<Port> directions = new LinkedHashSet<>();
        for (int i = 0; i < chosen.size(); i++) {
            int f = chosen.get(i);
            inFocus[f] = true;
            FlowSpec s = network.get(f);
            SimResults.FlowResult r = results.get(f);
            // Posted when the flow run started it, with its bytes; what it waited for is cut.
            flows.add(new FlowSpec(s.src(), s.dst(), s.bytes(), Math.max(0, r.startPs()), s.priority(), s.label(), "",
                    List.of(), FlowSpec.Kind.NETWORK, 0));
            ids[i] = f;
            udp[i] = r.udpSourcePort();
            directions.addAll(chosenUses.get(i).keySet());
        }

        // The other flows on those directions, each with its share of each and its shift.
        Map<Port, List<double[]>> onDirection = new LinkedHashMap<>();
        for (Port p : directions) {
            onDirection.put(p, new ArrayList<>());
        }
        boolean[] wanted = new boolean[results.size()];
        boolean any = false;
        for (int f = 0; f < results.size(); f++) {
            if (inFocus[f] || !sprayed && !hops.crosses(results.get(f), null, directions)) {
                continue;
            }
            for (var e : use.apply(f).entrySet()) {
                List<double[]> l = onDirection.get(e.getKey());
                if (l != null) {
                    l.add(new double[] {f, e.getValue()[0], e.getValue()[1]});
                    wanted[f] = true;
                    any = true;
                }
            }
        }
        List<Background> background = new ArrayList<>();
        if (any) {
            // Their rates over time: the flow run again (the same inputs give the same run), listened to.
            Track[] tracks = new Track[results.size()];
            FlowEngine again = rerun.get();
            again.setRateListener((flow, ps, rate) -> {
                if (flow < wanted.length && wanted[flow]) {
                    Track t = tracks[flow] == null ? tracks[flow] = new Track() : tracks[flow];
                    t.add(ps, rate);
                }
            });
            SimResults second = again.run(null);
            for (int f = 0; f < results.size(); f++) {
                long a = second.flows().size() == results.size() ? second.flows().get(f).finishPs() : Long.MIN_VALUE;
                long b = results.get(f).finishPs();
                // The same run finishes every flow at the same picosecond; a picosecond per million
                // is allowed for the order of equal-time events.
                if (a != b && (a < 0 || b < 0 || Math.abs(a - b) > 1 + b / 1_000_000)) {
                    throw new IllegalArgumentException("the flow run given is not this scenario's under this "
                            + "configuration (flow " + f + " finished at another time when run again)");
                }
            }
            for (var e : onDirection.entrySet()) {
                if (!e.getValue().isEmpty()) {
                    Background b = background(e.getKey(), fabric.linkAt(e.getKey()), e.getValue(), tracks);
                    if (b != null) {
                        background.add(b);
                    }
                }
            }
        }
        return new Plan(focus, flows, ids, udp, background, sprayed);
    }

    /** A flow's rate over time in the flow run: from {@code ps[i]} on, {@code rate[i]} wire bytes per ps. */
    static final class Track {
        long[] ps = new long[4];
        double[] rate = new double[4];
        int n;

        void add(long t, double r) {
            if (n > 0 && ps[n - 1] == t) {
                rate[n - 1] = r;
                return;
            }
            if (n == ps.length) {
                ps = java.util.Arrays.copyOf(ps, 2 * n);
                rate = java.util.Arrays.copyOf(rate, 2 * n);
            }
            ps[n] = t;
            rate[n++] = r;
        }
    }

    /**
     * The schedule of one direction: at every change of a background flow's rate (shifted by the
     * time its first frame takes from its NIC to this direction), the sum of the flows' rates times
     * their shares of the direction, over its line rate, at most n / (n + 1) with n the background
     * flows moving then. {@code flows}: {flow, share, shift ps} each. Null when the share is 0
     * throughout.
     */
    static Background background(Port from, Link link, List<double[]> flows, Track[] tracks) {
        List<double[]> changes = new ArrayList<>(); // time, rate delta, moving delta
        for (double[] fw : flows) {
            Track t = tracks[(int) fw[0]];
            if (t == null) {
                continue;
            }
            double before = 0;
            for (int i = 0; i < t.n; i++) {
                double r = t.rate[i];
                // A rate change at the flow's NIC reaches this direction its first frame's way later.
                changes.add(new double[] {t.ps[i] + fw[2], fw[1] * (r - before), (r > 0 ? 1 : 0) - (before > 0 ? 1 : 0)});
                before = r;
            }
        }
        changes.sort(java.util.Comparator.comparingDouble(c -> c[0]));
        double capacity = link.rateBps() / 8.0 / 1e12;
        List<Long> at = new ArrayList<>();
        List<Double> share = new ArrayList<>();
        double sum = 0;
        int moving = 0;
        double last = 0;
        for (int i = 0; i < changes.size(); ) {
            long t = (long) changes.get(i)[0];
            while (i < changes.size() && (long) changes.get(i)[0] == t) {
                sum += changes.get(i)[1];
                moving += (int) changes.get(i)[2];
                i++;
            }
            double x = moving <= 0 ? 0 : Math.max(0, Math.min(sum / capacity, moving / (moving + 1.0)));
            if (Math.abs(x - last) > 1e-9 || at.isEmpty() && x > 0) {
                at.add(t);
                share.add(x);
                last = x;
            }
        }
        if (at.isEmpty()) {
            return null;
        }
        return new Background(from, from.ref(), link.opposite(from).ref(),
                at.stream().mapToLong(Long::longValue).toArray(), share.stream().mapToDouble(Double::doubleValue).toArray(),
                flows.size());
    }

    /** One focus flow in both runs: FCTs (ps, -1 unfinished) and whether the packet run kept its path. */
    public record FlowComparison(int flowRunId, String src, String dst, String label, long bytes, long startPs,
                                 long flowFctPs, long packetFctPs, List<String> flowPath, List<String> packetPath) {
        /** The packet run's FCT over the flow run's; NaN when either did not finish. */
        public double ratio() {
            return flowFctPs > 0 && packetFctPs >= 0 ? (double) packetFctPs / flowFctPs : Double.NaN;
        }
    }

    /**
     * One direction of a focus link in the packet run: its peak queue (bytes, any class), ECN
     * marks, PFC pause frames it received and time paused, drops, and the peak background share.
     */
    public record LinkFigures(String from, String to, long maxQueueBytes, long ecnMarked, long pauseFramesReceived,
                              long pausedPs, long drops, double backgroundPeakShare) {
    }

    /** A finished focus run: the plan, the packet run's results and the comparison. */
    public record Result(Plan plan, SimResults packet, List<FlowComparison> flows, List<LinkFigures> focusLinks) {
        public Result {
            flows = List.copyOf(flows);
            focusLinks = List.copyOf(focusLinks);
        }

        /** The note every rendering of a focus run carries. */
        public String note() {
            return String.format(Locale.ROOT, "focus run of %s: %d flows packet by packet on their flow-run paths, "
                            + "the rest of the cluster's traffic as background on %d link directions (background takes "
                            + "capacity only: it does not queue, pause or get marked)", plan.focus().describe(),
                    plan.flows().size(), plan.background().size());
        }
    }

    /** The comparison of the focus flows and the focus links' figures after {@code packet}, the run of {@code plan}. */
    public static Result compare(Plan plan, SimResults flowRun, SimResults packet) {
        List<FlowComparison> flows = new ArrayList<>();
        for (int i = 0; i < plan.flows().size(); i++) {
            SimResults.FlowResult a = flowRun.flows().get(plan.flowRunIds()[i]);
            SimResults.FlowResult b = packet.flows().get(i);
            flows.add(new FlowComparison(a.id(), a.src(), a.dst(), a.label(), a.bytes(), plan.flows().get(i).startPs(),
                    a.fctPs(), b.fctPs(), a.path(), b.path()));
        }
        Map<String, Double> peak = new HashMap<>();
        for (Background b : plan.background()) {
            peak.put(b.fromRef(), b.peakShare());
        }
        List<LinkFigures> links = new ArrayList<>();
        for (Link l : plan.focus().links()) {
            for (Port from : new Port[] {l.a(), l.b()}) {
                String ref = from.ref();
                long q = 0;
                long marks = 0;
                long drops = 0;
                for (SimResults.QueueResult r : packet.queues()) {
                    if (r.port().equals(ref)) {
                        q = Math.max(q, r.maxBytes());
                        marks += r.ecnMarked();
                        drops += r.dropsBuffer() + r.dropsHeadroomOverflow() + r.dropsWatchdog() + r.dropsLinkDown();
                    }
                }
                long pauses = 0;
                long paused = 0;
                for (SimResults.PfcResult r : packet.pfc()) {
                    if (r.port().equals(ref)) {
                        pauses += r.pauseFramesReceived();
                        paused += r.pausedPs();
                    }
                }
                boolean used = q > 0 || peak.containsKey(ref) || packet.links().stream().anyMatch(x -> x.from().equals(ref));
                if (used) {
                    links.add(new LinkFigures(ref, l.opposite(from).ref(), q, marks, pauses, paused, drops,
                            peak.getOrDefault(ref, 0.0)));
                }
            }
        }
        links.sort(java.util.Comparator.comparingLong(LinkFigures::maxQueueBytes).reversed()
                .thenComparing(LinkFigures::from));
        return new Result(plan, packet, flows, links);
    }
}
