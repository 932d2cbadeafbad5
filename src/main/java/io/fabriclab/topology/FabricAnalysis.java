package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.Routing;

/**
 * Every static analysis of a fabric in one pass, as `fabriclab analyze` and the report show it.
 * With a failure, path counts, hop counts and the deadlock check are of the routing after the
 * failure (and {@link #failure} details what it costs); oversubscription, bisection and the bill of
 * materials are of the fabric as drawn.
 */
public record FabricAnalysis(Counts counts, Oversubscription oversubscription, Bisection bisection,
                             EcmpPathCounter.Statistics ecmp, HopStats hops, BillOfMaterials billOfMaterials,
                             FailureImpact failureImpact, List<HeadroomCalculator.PortHeadroom> headroom,
                             DeadlockCheck.Result deadlock, Failure failure, List<Finding> findings,
                             Map<String, Long> timingsMs) {

    /** A failure to analyse: switches and links taken down. */
    public record Failure(String spec, Set<Device> devices, Set<Link> links, FailureImpact.Detail detail) {
    }

    /** What the fabric is made of. */
    public record Counts(Map<DeviceRole, Integer> switchesByRole, int switches, int servers, int gpus, int nics,
                         int links, int linksDown, Map<String, Integer> cablesByTier) {

        public static Counts of(Fabric f) {
            Map<DeviceRole, Integer> byRole = new EnumMap<>(DeviceRole.class);
            int switches = 0;
            int servers = 0;
            int nics = 0;
            for (Device d : f.devices()) {
                if (d.role().isSwitch()) {
                    byRole.merge(d.role(), 1, Integer::sum);
                    switches++;
                } else {
                    servers++;
                    nics += (int) d.ports().stream().filter(p -> p.nic() != null).count();
                }
            }
            Map<String, Integer> cables = new TreeMap<>();
            int down = 0;
            for (Link l : f.links()) {
                cables.merge(BillOfMaterials.tier(l), 1, Integer::sum);
                if (!l.isUp()) {
                    down++;
                }
            }
            return new Counts(byRole, switches, servers, f.gpuCount(), nics, f.linkCount(), down, cables);
        }
    }

    /** Options: the price book for the bill (may be empty), whether to run the all-failures sweep. */
    public record Options(PriceBook priceBook, boolean failureSweep, Set<Device> failedDevices, Set<Link> failedLinks,
                          String failureSpec) {
        public static Options defaults(PriceBook book) {
            return new Options(book, true, Set.of(), Set.of(), null);
        }

        public Options withFailure(String spec, Set<Device> devices, Set<Link> links) {
            return new Options(priceBook, failureSweep, devices, links, spec);
        }

        public Options withoutFailureSweep() {
            return new Options(priceBook, false, failedDevices, failedLinks, failureSpec);
        }

        boolean hasFailure() {
            return !failedDevices.isEmpty() || !failedLinks.isEmpty();
        }
    }

    /**
     * Told when each phase of an analysis starts, so a long one (a 65,536-host fat tree takes tens
     * of seconds) can show where it is. Called on the analysing thread.
     */
    @FunctionalInterface
    public interface Progress {
        /**
         * @param phase the phase starting, as {@link #timingsMs} names it
         * @param index its position, from 0
         * @param count the phases this run has
         */
        void phase(String phase, int index, int count);

        /** How far the phase last announced is, from 0 to 1, for a long phase that can tell (a terminal shows it). */
        default void within(double fraction) {
        }

        Progress NONE = (phase, index, count) -> { };
    }

    /** The phases of a run with {@code options}, in order (the keys of {@link #timingsMs}). */
    static List<String> phases(Options options) {
        List<String> p = new ArrayList<>(List.of("oversubscription", "bisection", "billOfMaterials", "routingAndPathCounts",
                "failureImpact"));
        if (options.hasFailure()) {
            p.add("failureDetail");
        }
        p.addAll(List.of("pathAndHopStatistics", "headroom", "deadlock", "lint"));
        return p;
    }

    public static FabricAnalysis run(Fabric fabric, Options options) {
        return run(fabric, options, Progress.NONE);
    }

    /** As {@link #run(Fabric, Options)}, telling {@code progress} as each phase starts. */
    public static FabricAnalysis run(Fabric fabric, Options options, Progress progress) {
        List<String> phases = phases(options);
        java.util.function.Consumer<String> starting = name -> progress.phase(name, phases.indexOf(name), phases.size());
        Map<String, Long> t = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        starting.accept("oversubscription");
        Counts counts = Counts.of(fabric);
        Oversubscription over = Oversubscription.of(fabric);
        t0 = lap(t, "oversubscription", t0);
        starting.accept("bisection");
        Bisection bisection = Bisection.of(fabric);
        t0 = lap(t, "bisection", t0);
        starting.accept("billOfMaterials");
        BillOfMaterials bom = BillOfMaterials.of(fabric, options.priceBook());
        t0 = lap(t, "billOfMaterials", t0);
        starting.accept("routingAndPathCounts");
        EcmpPathCounter healthy = EcmpPathCounter.of(Routing.compute(fabric));
        t0 = lap(t, "routingAndPathCounts", t0);
        starting.accept("failureImpact");
        FailureImpact sweep = options.failureSweep() ? FailureImpact.analyze(healthy) : null;
        t0 = lap(t, "failureImpact", t0);
        EcmpPathCounter counter = healthy;
        Failure failure = null;
        if (options.hasFailure()) {
            starting.accept("failureDetail");
            FailureImpact.Detail detail = FailureImpact.detail(healthy, options.failedDevices(), options.failedLinks());
            counter = EcmpPathCounter.of(Routing.compute(fabric, options.failedDevices(), options.failedLinks()));
            failure = new Failure(options.failureSpec(), options.failedDevices(), options.failedLinks(), detail);
            t0 = lap(t, "failureDetail", t0);
        }
        starting.accept("pathAndHopStatistics");
        EcmpPathCounter.Statistics ecmp = counter.statistics();
        HopStats hops = HopStats.of(counter);
        t0 = lap(t, "pathAndHopStatistics", t0);
        starting.accept("headroom");
        List<HeadroomCalculator.PortHeadroom> headroom = HeadroomCalculator.check(fabric);
        t0 = lap(t, "headroom", t0);
        starting.accept("deadlock");
        DeadlockCheck.Result deadlock = DeadlockCheck.check(counter);
        t0 = lap(t, "deadlock", t0);
        starting.accept("lint");
        List<Finding> findings = new ArrayList<>(Lint.check(fabric));
        for (DeadlockCheck.Cycle c : deadlock.cycles()) {
            findings.add(new Finding(Finding.Severity.ERROR, "DEADLOCK_CYCLE", String.join(" > ", c.switches()),
                    "cyclic buffer dependency on lossless priority " + c.priority()
                            + (failure == null ? "" : " after failure of " + failure.spec())
                            + " through " + c.queues().size() + " ingress queues",
                    "make routing up-down only (no bounce paths) or keep this priority lossy on the ring"));
        }
        lap(t, "lint", t0);
        return new FabricAnalysis(counts, over, bisection, ecmp, hops, bom, sweep, headroom, deadlock, failure,
                findings, t);
    }

    /** True when a finding at error level exists (exit code 1 of analyze and validate). */
    public boolean hasErrors() {
        return findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR);
    }

    private static long lap(Map<String, Long> t, String name, long since) {
        long now = System.nanoTime();
        t.put(name, (now - since) / 1_000_000);
        return now;
    }
}
