package io.fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.sim.SimResults;

import org.junit.jupiter.api.Test;

/**
 * The scenarios shipped in resources/scenarios load, and the small ones (the classic 4-leaf fabric,
 * 8:1 incast of 2 MB per sender = 16 MB into one 100G port) show the behaviour each one is shipped
 * to demonstrate.
 */
class ShippedScenariosTest {
    private static final Path DIR = Path.of("resources/scenarios");

    private static SimResults run(String name) throws Exception {
        Scenario s = ScenarioJson.read(DIR.resolve(name + ".json"), FabricReader.FILES);
        return s.simulator(s.config()).run();
    }

    @Test
    void everyShippedScenarioLoads() throws Exception {
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                Scenario s = ScenarioJson.read(p, FabricReader.FILES);
                assertTrue(!s.flows().isEmpty(), p + " has flows");
            }
        }
    }

    @Test
    void pfcKeepsTheIncastLosslessAndTheReceiverAtLineRate() throws Exception {
        for (String name : new String[] {"incast-pfc-dcqcn", "incast-pfc-only"}) {
            SimResults r = run(name);
            assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason(), name);
            assertEquals(0, r.summary().drops(), name);
            assertTrue(r.summary().pauseFramesSent() > 0, name + " pauses");
        }
        // PFC only: the 100G receiver link is the bottleneck and never idles, so the last byte
        // arrives no earlier than 16 MB of payload at 100 Gb/s = 1.28 ms.
        SimResults pfcOnly = run("incast-pfc-only");
        assertTrue(pfcOnly.summary().fctMaxUs() >= 1280.0, "fct " + pfcOnly.summary().fctMaxUs());
        assertTrue(pfcOnly.summary().fctMaxUs() < 1280.0 * 1.1, "fct " + pfcOnly.summary().fctMaxUs());
    }

    @Test
    void withoutPfcTheIncastDropsAndRetransmits() throws Exception {
        SimResults none = run("incast-no-pfc-no-cc");
        assertTrue(none.summary().bufferDrops() > 0);
        assertTrue(none.summary().retransmittedBytes() > 0);
        SimResults dcqcn = run("incast-dcqcn-no-pfc");
        assertTrue(dcqcn.summary().cnpsSent() > 0);
        // DCQCN slows the senders, so fewer packets are lost than with no congestion control at all.
        assertTrue(dcqcn.summary().bufferDrops() < none.summary().bufferDrops());
    }

    @Test
    void ecnThresholdsAboveXoffNeverMarkWhileTunedOnesDo() throws Exception {
        // Kmin 5 MB: the egress queue is held near its PFC-limited size (~1.2 MB here) and never reaches it.
        SimResults high = run("ecn-too-high");
        assertEquals(0, high.summary().ecnMarked());
        SimResults tuned = run("ecn-tuned");
        assertTrue(tuned.summary().ecnMarked() > 0);
        assertTrue(tuned.summary().pauseFramesSent() < high.summary().pauseFramesSent());
    }

    @Test
    void theVictimIsPausedWithoutBeingCongested() throws Exception {
        SimResults r = run("hol-victim");
        assertEquals(0, r.summary().drops());
        SimResults.FlowResult victim = r.flows().stream().filter(f -> "victim".equals(f.label())).findFirst().orElseThrow();
        // Alone, 12 MB at 100G takes 960 us; pauses of its shared uplink make it take longer.
        assertTrue(victim.fctPs() > 960_000_000L * 1.05, "victim fct " + victim.fctPs());
    }

    private static SimResults.UplinkSpread uplinks(SimResults r, String device) {
        return r.uplinks().stream().filter(u -> u.device().equals(device)).findFirst().orElseThrow();
    }

    @Test
    void sprayingAndAdaptiveRoutingFinishTheAllToAllSoonerThanEcmp() throws Exception {
        // 8 ranks, 4 per leaf, 32 MB each: a rank sends 7 x 4 MB, so its 100G link needs
        // 28 MB / 12.5 GB/s = 2,240 us plus 2 % of headers (82 B per 4,096 B): 2,285 us. Each leaf
        // sends 16 cross-leaf flows (4 ranks x 4 peers) over 4 uplinks that together carry exactly
        // what the 4 ranks send across: ECMP puts whole flows on uplinks and the busiest one decides.
        SimResults ecmp = run("alltoall-ecmp");
        SimResults spray = run("alltoall-spray");
        SimResults adaptive = run("alltoall-adaptive");
        double ideal = 28e6 / 12.5e9 * 1e12 * (1 + 82.0 / 4096);
        for (SimResults r : new SimResults[] {ecmp, spray, adaptive}) {
            assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
            assertTrue(r.collectives().get(0).timePs() >= ideal);
        }
        assertTrue(uplinks(ecmp, "leaf1").maxOverMean() > 1.5, "ECMP leaves uplinks uneven");
        assertTrue(uplinks(spray, "leaf1").maxOverMean() < 1.1);
        assertTrue(uplinks(adaptive, "leaf1").maxOverMean() < 1.1);
        long te = ecmp.collectives().get(0).timePs();
        assertTrue(spray.collectives().get(0).timePs() < te * 0.95);
        assertTrue(adaptive.collectives().get(0).timePs() < ideal * 1.05, "adaptive reaches the line rate");
    }

    @Test
    void aRailAwareRingKeepsMostHopsOnOneRailAndBeatsTheNaiveRing() throws Exception {
        // 32 ranks = 4 servers x 8 rails; a hop leaves its rail leaf through a spine only when the
        // next rank is on another rail. Rail-aware: ranks grouped by rail (8 groups of 4), so only
        // the 8 hops from one group to the next change rail; naive (server order): all 32 do. An
        // all-reduce has 2 x 31 = 62 steps of 32 flows.
        SimResults railAware = run("allreduce-rail-1su-rail-aware");
        SimResults naive = run("allreduce-rail-1su-naive");
        assertEquals(62 * 8, viaSpine(railAware));
        assertEquals(62 * 32, viaSpine(naive));
        SimResults.CollectiveResult ra = railAware.collectives().get(0);
        SimResults.CollectiveResult nv = naive.collectives().get(0);
        assertEquals(62, ra.steps().size());
        // 400G NICs: busbw can reach 50 GB/s; the naive ring also queues behind ECMP collisions on the spines.
        assertTrue(ra.busbwGBps() > nv.busbwGBps(), ra.busbwGBps() + " vs " + nv.busbwGBps());
        assertTrue(ra.busbwGBps() < 50);
    }

    private static long viaSpine(SimResults r) {
        return r.flows().stream().filter(f -> f.path().size() > 2).count();
    }

    @Test
    void aLinkFailureMidCollectiveIsCountedAndTheCollectiveRecoversWithAStall() throws Exception {
        SimResults r = run("link-failure-mid-collective");
        SimResults.CollectiveResult c = r.collectives().get(0);
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
        assertTrue(r.summary().linkDownDrops() > 0, "frames lost on and behind the dead link");
        assertEquals(1, r.run().reroutes());
        assertTrue(c.retransmittedBytes() > 0, "go-back-N resent them");
        // The flows on the dead uplink stall from the failure until routing reconverges (50 us) and
        // a NAK round trip later: the collective shows at least the 50 us.
        assertTrue(c.stallPs() >= 50_000_000L, "stall " + c.stallPs());
    }

    @Test
    void theDeadlockScenarioHasTheStaticCyclesAndLosesNothing() throws Exception {
        Scenario s = ScenarioJson.read(DIR.resolve("deadlock-after-failure.json"), FabricReader.FILES);
        SimResults r = s.simulator(s.config()).run();
        assertEquals(SimResults.StopReason.TIME_LIMIT, r.run().stopReason(), "nothing completes");
        assertEquals(0, r.run().flowsCompleted());
        assertEquals(0, r.summary().drops(), "PFC loses nothing");
        // The static check of the same fabric with the same link failed: each cycle is a ring of
        // ingress queues (device:port from fromDevice:fromPort).
        io.fabriclab.model.Link failed = s.fabric().findLink("leaf3:eth2");
        io.fabriclab.topology.DeadlockCheck.Result check = io.fabriclab.topology.DeadlockCheck.check(s.fabric(),
                java.util.Set.of(), java.util.Set.of(failed));
        assertEquals(2, check.cycles().size());
    }

    @Test
    void theDeadlockAfterAFailureStallsAndTheDetectorNamesTheStaticCycle() throws Exception {
        Scenario s = ScenarioJson.read(DIR.resolve("deadlock-after-failure.json"), FabricReader.FILES);
        io.fabriclab.sim.Simulator sim = s.simulator(s.config());
        // Per switch port (as an ingress): the time of its last resume and the ingress bytes its
        // last PFC frame reported.
        java.util.Map<String, Long> lastResumePs = new java.util.HashMap<>();
        java.util.Map<String, Long> lastIngressBytes = new java.util.HashMap<>();
        sim.setTrace(new io.fabriclab.sim.SimTrace() {
            @Override
            public void pfcSent(long nowPs, String port, int priority, int quanta, long ingressBytes) {
                if (quanta == 0) {
                    lastResumePs.put(port, nowPs);
                }
                lastIngressBytes.put(port, ingressBytes);
            }
        });
        SimResults r = sim.run();
        // The cycle freezes once each of its four ingress groups holds more than XON (20 KB) of
        // bytes bound for the next paused queue (the four then stay paused; XON is never sent).
        // With seed 2 and the switches' port-to-port latency (300 ns, cut-through) the detector (200 us
        // threshold, checked at each sample) reports it at 360 us, inside the 3 ms run (at 400 us with
        // the 600 ns of the Ethernet class before issue #29; seed 3 froze it without switch latency and
        // no longer does: whether the cycle freezes depends on timing).
        assertEquals(1, r.deadlocks().size(), r.deadlocks().toString());
        System.out.println("deadlock-after-failure: " + r.deadlocks().get(0).ports() + " at "
                + r.deadlocks().get(0).detectedPs() + " ps");
        assertEquals(360_000_000L, r.deadlocks().get(0).detectedPs());
        assertTrue(r.deadlocks().get(0).detectedPs() < r.run().simulatedPs(), "detected within the run");
        // The queue that pauses is the egress fromDevice:fromPort that feeds a static cycle's
        // ingress queue, which is what the dynamic detector reports.
        io.fabriclab.model.Link failed = s.fabric().findLink("leaf3:eth2");
        io.fabriclab.topology.DeadlockCheck.Result check = io.fabriclab.topology.DeadlockCheck.check(s.fabric(),
                java.util.Set.of(), java.util.Set.of(failed));
        java.util.List<java.util.Set<String>> staticCycles = check.cycles().stream()
                .map(c -> c.queues().stream().map(q -> q.fromDevice() + ":" + q.fromPort())
                        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new)))
                .map(x -> (java.util.Set<String>) x).toList();
        java.util.Set<String> dynamic = new java.util.TreeSet<>(r.deadlocks().get(0).ports());
        assertEquals(3, r.deadlocks().get(0).priority());
        assertTrue(staticCycles.contains(dynamic), "dynamic " + dynamic + " is one of the static cycles " + staticCycles);
        // The freeze condition itself, at the static cycle's ingress queues (device:port, each fed
        // by one reported egress): none resumed in the 200 us before detection, and each still
        // holds more than XON (20,000 B, the scenario's qos.pfc.xonBytes) at the end of the run.
        long detected = r.deadlocks().get(0).detectedPs();
        io.fabriclab.topology.DeadlockCheck.Cycle cycle = check.cycles().stream()
                .filter(c -> dynamic.contains(c.queues().get(0).fromDevice() + ":" + c.queues().get(0).fromPort()))
                .findFirst().orElseThrow();
        for (io.fabriclab.topology.DeadlockCheck.IngressQueue q : cycle.queues()) {
            String ingress = q.device() + ":" + q.port();
            assertTrue(lastResumePs.getOrDefault(ingress, -1L) < detected - 200_000_000L,
                    ingress + " resumed at " + lastResumePs.get(ingress) + " ps");
            assertTrue(lastIngressBytes.get(ingress) > 20_000, ingress + " holds " + lastIngressBytes.get(ingress) + " B");
        }
    }

    @Test
    void backgroundLoadSlowsTheCollectiveItShares() throws Exception {
        SimResults alone = run("collective-alone");
        SimResults loaded = run("collectives-under-background");
        SimResults.CollectiveResult a = alone.collectives().get(0);
        SimResults.CollectiveResult b = loaded.collectives().get(0);
        assertTrue(b.finishPs() > 0, "the all-reduce completes under load");
        assertTrue(loaded.flows().stream().filter(f -> "background".equals(f.label())).count() > 100);
        // Ports that carry both classes split by DWRR (equal weights): the all-reduce gets at most
        // its share where background queues, so it takes longer than on the idle fabric.
        assertTrue(b.timePs() > a.timePs() * 1.2, "alone " + a.timePs() + ", loaded " + b.timePs());
    }
}
