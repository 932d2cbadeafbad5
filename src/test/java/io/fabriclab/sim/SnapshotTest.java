package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

class SnapshotTest {

    @Test
    void snapshotsArriveEveryIntervalAndShowQueuesPausesAndRates() {
        Fabric f = TestFabrics.star(5, 100, 1.0, IncastTest.pfcOnly(100_000, 80_000, 70_000));
        Simulator sim = new Simulator(f, IncastTest.incast(4, 1_000_000), SimConfig.defaults());
        List<SimSnapshot> seen = new ArrayList<>();
        AtomicReference<SimSnapshot> newest = new AtomicReference<>();
        sim.setSnapshotSink(s -> {
            seen.add(s);
            newest.set(s);
        }, 20_000_000);
        SimResults r = sim.run();
        // 4 MB through one 100G port takes about 330 us: a snapshot every 20 us.
        assertTrue(seen.size() >= 15, "snapshots: " + seen.size());
        for (int i = 0; i < seen.size(); i++) {
            assertEquals((i + 1) * 20_000_000L, seen.get(i).timePs());
        }
        int toS0 = seen.get(0).ports().indexOf("leaf0:eth0");
        SimSnapshot mid = seen.get(5);
        assertTrue(mid.queueBytes()[toS0] > 0, "the incast queue is visible");
        assertTrue(mid.utilization()[toS0] > 0.95, "the receiver link runs at line rate: " + mid.utilization()[toS0]);
        assertTrue(seen.stream().anyMatch(s -> {
            for (int m : s.pausedMask()) {
                if ((m & (1 << 3)) != 0) {
                    return true;
                }
            }
            return false;
        }), "a sender's priority 3 shows as paused");
        assertEquals(seen.stream().mapToLong(SimSnapshot::pauseFramesSinceLast).sum() <= r.summary().pauseFramesSent(), true);
        assertEquals(100.0, seen.get(0).flowRateGbps().get(0), 0.0);
    }

    @Test
    void commandsFromAnotherThreadRunBetweenEvents() {
        Fabric f = TestFabrics.star(5, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        Simulator sim = new Simulator(f, IncastTest.incast(4, 2_000_000), SimConfig.defaults());
        // Switch ECN off on the congested queue before the run: no marks, hence no CNPs.
        sim.submit(c -> c.setWred("leaf0:eth0", 3, null));
        sim.setSnapshotSink(s -> { }, 1_000_000);
        SimResults r = sim.run();
        assertEquals(0, r.summary().ecnMarked());
        assertEquals(0, r.summary().cnpsSent());
    }

    /**
     * A snapshot visits only the flows that can have moved (active ones, and those that started or
     * finished since the last one) and shares the storage blocks of the rest with the snapshot before.
     * Checked against the values read from every flow at each snapshot: a collective of
     * {@value #RING_FLOWS} flows (several blocks of {@link FlowValues#BLOCK}), whose steps start and
     * finish at different instants, and an incast beside it that ECN marks, so CNP counts move too.
     */
    @Test
    void perFlowValuesMatchEveryFlowAtEverySnapshotAndUnchangedBlocksAreShared() throws Exception {
        Fabric f = io.fabriclab.io.FabricJson.read(java.nio.file.Path.of("resources/examples/classic-leaf-spine.json"));
        List<io.fabriclab.workload.FlowSpec> specs =
                new ArrayList<>(io.fabriclab.workload.WorkloadPreset.ALL_REDUCE.flows(f, 4_000_000, 1, 1));
        assertEquals(RING_FLOWS, specs.size());
        // An 8-to-1 incast alongside congests a receiver, so ECN marks it and CNPs flow.
        specs.addAll(io.fabriclab.workload.WorkloadPreset.INCAST.flows(f, 1_000_000, 8, 1));
        Simulator sim = new Simulator(f, specs, SimConfig.defaults());
        Flow[] flows = sim.flows();
        List<SimSnapshot> seen = new ArrayList<>();
        List<double[][]> atPublish = new ArrayList<>();
        long[] checkedActive = new long[1];
        long[] cnpsSoFar = new long[1];
        sim.setSnapshotSink(s -> {
            // CNPs since the last snapshot add up to what the NIC ports and the flows count.
            cnpsSoFar[0] += s.cnpsSinceLast();
            assertEquals(cnpsSoFar[0], s.totalCnps());
            long flowCnps = 0;
            for (Flow fl : flows) {
                flowCnps += fl.cnpsSent;
            }
            assertEquals(flowCnps, s.totalCnps());
            for (Flow fl : flows) {
                boolean active = fl.started && !fl.done;
                checkedActive[0] += active ? 1 : 0;
                assertEquals(active ? fl.rp.currentRateBps() / 1e9 : 0, s.flowRateGbps().get(fl.id), 0.0);
                assertEquals(active ? fl.rp.targetRateBps() / 1e9 : 0, s.flowTargetGbps().get(fl.id), 0.0);
                assertEquals((double) fl.expected / fl.totalPackets, s.flowProgress().get(fl.id), 0.0);
                assertEquals(fl.cnpsSent, (long) s.flowCnpsTotal().get(fl.id));
            }
            seen.add(s);
            atPublish.add(new double[][] {s.flowRateGbps().toArray(), s.flowTargetGbps().toArray(),
                    s.flowProgress().toArray(), s.flowCnpsTotal().toArray()});
        }, 2_000_000);
        SimResults r = sim.run();
        assertTrue(seen.size() > 20, "snapshots: " + seen.size());
        assertTrue(checkedActive[0] > 0, "some snapshots caught flows in flight");
        assertTrue(r.summary().cnpsSent() > 0, "CNPs were sent, so their counts were checked moving");
        // Published values never change afterwards (the writer copies a block before writing into
        // one it has published): each snapshot still holds what it held when it arrived.
        for (int i = 0; i < seen.size(); i++) {
            SimSnapshot s = seen.get(i);
            assertArrayEquals(atPublish.get(i)[0], s.flowRateGbps().toArray(), "rates of snapshot " + i);
            assertArrayEquals(atPublish.get(i)[1], s.flowTargetGbps().toArray(), "targets of snapshot " + i);
            assertArrayEquals(atPublish.get(i)[2], s.flowProgress().toArray(), "progress of snapshot " + i);
            assertArrayEquals(atPublish.get(i)[3], s.flowCnpsTotal().toArray(), "CNPs of snapshot " + i);
        }
        // Snapshots between which nothing moved share every block; in the middle of the run only
        // the blocks of the step in flight are fresh.
        int shared = 0;
        for (int i = 1; i < seen.size(); i++) {
            FlowValues a = seen.get(i - 1).flowProgress();
            FlowValues b = seen.get(i).flowProgress();
            int fresh = 0;
            for (int fl = b.nextUnshared(a, 0); fl < b.size(); fl = b.nextUnshared(a, (fl | (FlowValues.BLOCK - 1)) + 1)) {
                fresh++;
            }
            int blocks = (RING_FLOWS + FlowValues.BLOCK - 1) / FlowValues.BLOCK;
            assertTrue(fresh <= blocks);
            shared += blocks - fresh;
        }
        assertTrue(shared > 0, "consecutive snapshots share blocks");
    }

    /**
     * A snapshot carries only the links traffic can have reached, and loses nothing by it: the same
     * incast run twice, once listing every port, gives at each snapshot the same values for the
     * ports both list, zeros everywhere else, the same totals and the same flow paths (by name).
     * On the classic example (40 links, 80 egress ports) an 8-to-1 incast reaches 18 links (36 ports).
     * A link failed during the run is carried from that instant even if nothing crossed it.
     */
    @Test
    void snapshotsCarryTheLinksTrafficReachedAndLoseNothing() throws Exception {
        Fabric f = io.fabriclab.io.FabricJson.read(java.nio.file.Path.of("resources/examples/classic-leaf-spine.json"));
        List<io.fabriclab.workload.FlowSpec> specs = io.fabriclab.workload.WorkloadPreset.INCAST.flows(f, 500_000, 8, 1);
        // An idle link (no flow's path crosses it): the uplink of a server that neither sends nor
        // receives, failed at 20 us.
        java.util.Set<String> busy = new java.util.HashSet<>();
        for (io.fabriclab.workload.FlowSpec fs : specs) {
            busy.add(fs.src().split(":")[0]);
            busy.add(fs.dst().split(":")[0]);
        }
        io.fabriclab.model.Link idle = f.links().stream()
                .filter(l -> !l.a().device().role().isSwitch() && !busy.contains(l.a().device().id())
                        || !l.b().device().role().isSwitch() && !busy.contains(l.b().device().id()))
                .findFirst().orElseThrow();
        List<SimSnapshot> scoped = run(f, specs, false, idle);
        List<SimSnapshot> whole = run(f, specs, true, idle);
        assertEquals(whole.size(), scoped.size());
        int all = whole.get(0).ports().size();
        assertEquals(2 * f.links().size(), all);
        int carried = scoped.get(scoped.size() - 1).ports().size();
        assertTrue(carried < all / 2, "an 8-to-1 incast reaches " + carried + " of " + all + " ports");
        boolean sawIdleDown = false;
        for (int k = 0; k < whole.size(); k++) {
            SimSnapshot w = whole.get(k);
            SimSnapshot s = scoped.get(k);
            assertEquals(w.timePs(), s.timePs());
            assertTrue(k == 0 || s.ports().size() >= scoped.get(k - 1).ports().size(), "the port list only grows");
            for (int i = 0; i < s.ports().size(); i++) {
                assertEquals(s.ports().get(i ^ 1), w.ports().get(w.portIndex(s.ports().get(i)) ^ 1),
                        "both directions of a link, peers at i ^ 1");
            }
            for (int g = 0; g < all; g++) {
                int i = s.portIndex(w.ports().get(g));
                String at = "snapshot " + k + ", " + w.ports().get(g);
                assertEquals(i < 0 ? 0 : s.queueBytes()[i], w.queueBytes()[g], at);
                assertEquals(i < 0 ? 0 : s.ingressBytes()[i], w.ingressBytes()[g], at);
                assertEquals(i < 0 ? 0 : s.pausedMask()[i], w.pausedMask()[g], at);
                assertEquals(i >= 0 && s.linkDown()[i], w.linkDown()[g], at);
                assertEquals(i < 0 ? 0 : s.ecnMarks()[i], w.ecnMarks()[g], at);
                assertEquals(i < 0 ? 0 : s.ecnMarksTotal()[i], w.ecnMarksTotal()[g], at);
                assertEquals(i < 0 ? 0 : s.dropsTotal()[i], w.dropsTotal()[g], at);
                assertEquals(i < 0 ? 0 : s.pauseFramesTotal()[i], w.pauseFramesTotal()[g], at);
                assertEquals(i < 0 ? 0 : s.pausedPsTotal()[i], w.pausedPsTotal()[g], at);
                assertEquals(i < 0 ? 0 : s.cnpsTotal()[i], w.cnpsTotal()[g], at);
                assertEquals(i < 0 ? 0 : s.wireBytesTotal()[i], w.wireBytesTotal()[g], at);
                assertEquals(i < 0 ? 0 : s.utilization()[i], w.utilization()[g], 1e-12, at);
                if (i >= 0) {
                    assertEquals(w.thresholds().get(g), s.thresholds().get(i), at);
                }
                sawIdleDown |= i >= 0 && s.linkDown()[i];
            }
            assertEquals(w.totalCnps(), s.totalCnps());
            assertEquals(w.totalPauseFrames(), s.totalPauseFrames());
            assertEquals(w.totalEcnMarks(), s.totalEcnMarks());
            assertEquals(w.cnpsSinceLast(), s.cnpsSinceLast());
            for (int fl = 0; fl < specs.size(); fl++) {
                assertEquals(names(w, w.flowPaths().get(fl)), names(s, s.flowPaths().get(fl)), "path of flow " + fl);
                assertEquals(names(w, w.flowReversePaths().get(fl)), names(s, s.flowReversePaths().get(fl)));
            }
        }
        assertTrue(sawIdleDown, "the idle link failed during the run is shown failed");
    }

    private static List<SimSnapshot> run(Fabric f, List<io.fabriclab.workload.FlowSpec> specs, boolean whole,
                                         io.fabriclab.model.Link failAt20us) {
        Simulator sim = new Simulator(f, specs, SimConfig.defaults());
        sim.setWholeFabricSnapshots(whole);
        List<SimSnapshot> seen = new ArrayList<>();
        sim.setSnapshotSink(s -> {
            seen.add(s);
            if (s.timePs() == 20_000_000L) {
                sim.submit(c -> c.failLink(failAt20us));
            }
        }, 5_000_000);
        sim.run();
        return seen;
    }

    private static List<String> names(SimSnapshot s, int[] path) {
        List<String> out = new ArrayList<>();
        for (int i : path) {
            out.add(s.ports().get(i));
        }
        return out;
    }

    /** 32 GPUs on the classic example, one ring per NIC index (1): 2 (n - 1) steps of n flows. */
    /** The all-reduce preset on the classic fabric: one NIC per server, 2 channels x 62 steps x 32 ranks. */
    static final int RING_FLOWS = 2 * 2 * 31 * 32;
}
