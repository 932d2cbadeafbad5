package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.fabriclab.io.ResultsJson;
import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.WredEcn;
import io.fabriclab.workload.FlowSpec;

/** The live control surface: run control, commands, snapshots and errors, all headless. */
class LiveRunTest {
    static final long US = 1_000_000L;
    static final ResultsJson.Metadata META = new ResultsJson.Metadata("test", "live", "live", "-", "star5", "lossless");

    /** 4:1 incast of 1 MB per sender on one 100G switch, the lossless RoCEv2 profile (PFC, ECN, DCQCN on). */
    static Simulator incastRun() {
        Fabric f = TestFabrics.star(5, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        return new Simulator(f, IncastTest.incast(4, 1_000_000), SimConfig.defaults());
    }

    static String json(SimResults r) {
        return ResultsJson.toJson(r, META, true);
    }

    static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    // ----- pause / step / resume / speed ------------------------------------------------------------

    @Test
    void pauseStepsSpeedAndResumeEndWithByteIdenticalResultsToAnUninterruptedRun() throws Exception {
        Simulator reference = incastRun();
        reference.setSnapshotSink(s -> { }, 5 * US);
        String expected = json(reference.run());

        // An uninterrupted live run.
        LiveRun free = new LiveRun(incastRun(), 5 * US);
        free.start(false);
        assertEquals(expected, json(get(free.result())));
        assertEquals(LiveRun.State.FINISHED, free.state());

        // The same run paused before the first event, single-stepped, slowed, paused, resumed.
        LiveRun live = new LiveRun(incastRun(), 5 * US);
        live.start(true);
        long t = 0;
        for (int i = 0; i < 300; i++) {
            long after = get(live.stepEvent());
            assertTrue(after >= t, "one event never goes back in time");
            t = after;
        }
        assertEquals(300, live.latest().events(), "300 single steps ran exactly 300 events");
        // Interval steps land on the snapshot grid: the next multiple of 5 us, then 5 us strides.
        long grid = (t / (5 * US) + 1) * 5 * US;
        for (int i = 0; i < 3; i++) {
            assertEquals(grid + i * 5 * US, get(live.stepInterval()));
            assertEquals(grid + i * 5 * US, live.latest().timePs());
        }
        assertEquals(LiveRun.State.PAUSED, live.state());

        // Throttled at 10 us of simulated time per wall second for about 150 ms of wall time:
        // simulated time may advance at most speed x elapsed wall time.
        long speed = 10 * US;
        live.setSpeed(speed);
        long simBefore = live.latest().timePs();
        long wall0 = System.nanoTime();
        live.resume();
        Thread.sleep(150);
        live.pause();
        long simAfter = get(live.stepEvent());
        long wall = System.nanoTime() - wall0;
        assertTrue(simAfter - simBefore <= speed * wall / 1_000_000_000L + 5 * US,
                "throttled: " + (simAfter - simBefore) + " ps in " + wall + " ns");
        assertTrue(simAfter > simBefore, "the throttled run advanced");

        live.setSpeed(LiveRun.UNTHROTTLED);
        live.resume();
        Thread.sleep(20);
        live.pause();
        get(live.stepInterval());
        live.resume();
        SimResults r = get(live.result());
        assertEquals(expected, json(r), "pausing, stepping and throttling change nothing the run computes");
        assertEquals(LiveRun.State.FINISHED, live.state());
        assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
    }

    /** Holds the simulator in its gate once, after it has read its command queue, until released. */
    static final class GateHold implements Runnable {
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean armed = new AtomicBoolean(true);

        @Override
        public void run() {
            if (armed.getAndSet(false)) {
                held.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        void awaitHeld() throws InterruptedException {
            assertTrue(held.await(60, TimeUnit.SECONDS), "the simulator reached its gate");
        }
    }

    /**
     * A step runs to its instant even when a request to the gate reaches the simulator after the
     * step began. step() queues the step, wakes the paused simulator, then queues pause()'s
     * request to stop before the next event; a simulator that woke and read its command queue in
     * between took the step, met that request when it next polled its commands (every 4096
     * events) and ended the step there, below its instant, with nothing more to publish: the live
     * view waited for 10 us for ever (LiveViewModelTest, twice in about fourteen suites). The
     * seam holds the simulator at that point; Pause or a speed change during a step did the same.
     */
    @Test
    void aStepRunsToItsInstantWhenAPauseOrSpeedRequestArrivesAfterItBegan() throws Exception {
        // 8:1 incast, 100 us steps: about 8,000 events a step.
        long interval = 100 * US;
        java.util.function.Supplier<Simulator> incast8 = () -> new Simulator(
                TestFabrics.star(9, 100, 1.0, QosProfile.roceLossless("lossless", 100)),
                IncastTest.incast(8, 1_000_000), SimConfig.defaults());
        Simulator reference = incast8.get();
        reference.setSnapshotSink(s -> { }, interval);
        String expected = json(reference.run());

        LiveRun live = new LiveRun(incast8.get(), interval);
        GateHold first = new GateHold();
        live.afterGateCommands = first;
        live.start(true);
        first.awaitHeld(); // before the first event, its (empty) command queue read
        CompletableFuture<Long> step1 = live.stepInterval(); // the step, then its pause request, queued
        first.release.countDown();
        assertEquals(interval, get(step1), "the step ends at its instant, not where its own pause request met it");
        assertEquals(interval, live.latest().timePs(), "and its snapshot shows that instant");
        long events1 = live.latest().events();
        assertTrue(events1 > 4096, "the step polls its commands at least once (every 4096 events): " + events1);

        // Pause pressed and the speed changed while a step runs: the step still ends at its instant.
        GateHold second = new GateHold();
        live.afterGateCommands = second;
        live.submit(c -> { }); // wakes the paused simulator, which reads its commands and is held
        second.awaitHeld();
        CompletableFuture<Long> step2 = live.stepInterval();
        live.pause();
        live.setSpeed(10 * US);
        second.release.countDown();
        assertEquals(2 * interval, get(step2));
        assertEquals(2 * interval, live.latest().timePs());
        assertTrue(live.latest().events() / 4096 > events1 / 4096, "the step polled its commands on the way");
        assertEquals(LiveRun.State.PAUSED, live.state());
        assertTrue(live.diagnostics().startsWith("run PAUSED, newest snapshot at 200000000 ps ("), live.diagnostics());
        assertTrue(live.diagnostics().endsWith(", 0 steps and 0 commands queued"), live.diagnostics());

        live.afterGateCommands = null;
        live.setSpeed(LiveRun.UNTHROTTLED);
        live.resume();
        assertEquals(expected, json(get(live.result())), "the requests met mid-step change nothing the run computes");
    }

    @Test
    void stopEndsTheRunWithStopReasonStoppedAndStepsAfterTheEndCompleteAtOnce() throws Exception {
        LiveRun live = new LiveRun(incastRun(), 5 * US);
        live.start(true);
        get(live.stepInterval());
        live.stop();
        SimResults r = get(live.result());
        assertEquals(SimResults.StopReason.STOPPED, r.run().stopReason());
        assertEquals(LiveRun.State.STOPPED, live.state());
        assertEquals(5 * US, r.run().simulatedPs());
        assertEquals(5 * US, get(live.stepEvent()), "a step after the end completes with the final time");
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> get(live.setEcn("leaf0:eth0", 3, null)));
        assertInstanceOf(IllegalStateException.class, e.getCause(), "a command after the end fails, never hangs");
    }

    @Test
    void speedOutsideOneNanosecondToOneMillisecondPerSecondIsRefused() {
        LiveRun live = new LiveRun(incastRun(), 5 * US);
        assertThrows(IllegalArgumentException.class, () -> live.setSpeed(999));
        assertThrows(IllegalArgumentException.class, () -> live.setSpeed(1_000_000_001L));
        live.setSpeed(LiveRun.MIN_SPEED_PS_PER_S);
        live.setSpeed(LiveRun.MAX_SPEED_PS_PER_S);
        assertEquals(LiveRun.MAX_SPEED_PS_PER_S, live.speed());
    }

    // ----- thresholds mid-run ------------------------------------------------------------------------

    /** PFC on priority 3 and ECN at dequeue on class 3, no DCQCN (marks change nothing else). */
    static QosProfile pfcWithEcn(long xoff, long xon, long headroom, WredEcn curve) {
        PfcConfig pfc = new PfcConfig(true, Set.of(3), xoff, xon, headroom, 0, PfcConfig.WatchdogAction.DROP);
        BufferConfig buf = new BufferConfig(64L << 20, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        EcnConfig ecn = new EcnConfig(true, Map.of(3, curve), EcnConfig.MarkingPoint.DEQUEUE);
        return new QosProfile("pfc-ecn", "", pfc, ecn, DcqcnConfig.off(), buf, SchedulerConfig.defaults());
    }

    @Test
    void loweringKminMidRunMarksFromThatInstantAndRaisingItStopsMarking() throws Exception {
        // Kmin 1 MB / Kmax 2 MB: the egress queue to s0 never gets there. PFC holds every ingress
        // below XOFF + a frame + headroom = 174.2 KB, so the queue behind the receiver port holds at most
        // 4 x 174.2 KB = 696.8 KB < 1 MB: no marks.
        WredEcn high = new WredEcn(1_000_000, 2_000_000, 1.0);
        Fabric f = TestFabrics.star(5, 100, 1.0, pfcWithEcn(100_000, 80_000, 70_000, high));
        Simulator sim = new Simulator(f, IncastTest.incast(4, 1_000_000), SimConfig.defaults());
        LiveRun live = new LiveRun(sim, 10 * US);
        live.start(true);
        long t = 0;
        for (int i = 0; i < 5; i++) {
            t = get(live.stepInterval());
        }
        assertEquals(50 * US, t);
        SimSnapshot before = live.latest();
        int port = before.portIndex("leaf0:eth0");
        assertEquals(0, before.ecnMarksTotal()[port], "no marks while Kmin is out of reach");
        assertEquals(1_000_000, before.thresholds().get(port).ecn().kminBytes());
        long queueAtT = before.queueBytes()[port];
        // The window below is 10 us; at 100G the port sends at most 125,000 B in it, so a queue of at
        // least 145,000 B at T stays above Kmax = 20,000 B for the whole window even with no arrival.
        assertTrue(queueAtT >= 145_000, "incast queue at T: " + queueAtT);

        // At T = 50 us: Kmin 10 KB, Kmax 20 KB, Pmax 1. The queue is above Kmax, so p = 1: every
        // frame dequeued from now on is marked. The port is backlogged and sends full frames back to
        // back, one 4220 B wire frame per 4220 x 80 ps = 337,600 ps, so the 10 us window holds
        // 10,000,000 / 337,600 = 29.6 dequeues: 29 or 30 marks, depending on where the first lands.
        long applied = get(live.setEcn("leaf0:eth0", 3, new WredEcn(10_000, 20_000, 1.0)));
        assertTrue(applied <= 50 * US, "applied at the paused instant");
        assertEquals(60 * US, get(live.stepInterval()));
        SimSnapshot during = live.latest();
        long marks = during.ecnMarksTotal()[port] - before.ecnMarksTotal()[port];
        assertTrue(marks == 29 || marks == 30, "marks in the 10 us after the change: " + marks);
        assertEquals(10_000, during.thresholds().get(port).ecn().kminBytes(), "the snapshot shows the new Kmin");

        // At 60 us Kmin goes back to 1 MB: no mark from that instant.
        get(live.setEcn("leaf0:eth0", 3, high));
        assertEquals(70 * US, get(live.stepInterval()));
        SimSnapshot after = live.latest();
        assertEquals(during.ecnMarksTotal()[port], after.ecnMarksTotal()[port], "marking stops with the raised Kmin");

        live.resume();
        SimResults r = get(live.result());
        assertEquals(during.ecnMarksTotal()[port], r.summary().ecnMarked(), "every mark of the run fell in the window");
    }

    @Test
    void loweringXoffOfAProfileMidRunPausesEverySenderAtItsNextArrival() throws Exception {
        // XOFF 1 MB with 1 MB headroom: nothing pauses at first. Each sender-facing ingress receives
        // 100 Gb/s and drains a quarter of the 100G egress, so it fills at 75 Gb/s = 9,375 B/us.
        Fabric f = TestFabrics.star(5, 100, 1.0, IncastTest.pfcOnly(1_000_000, 800_000, 1_000_000));
        Simulator sim = new Simulator(f, IncastTest.incast(4, 1_000_000), SimConfig.defaults());
        Map<String, Long> firstPause = Collections.synchronizedMap(new HashMap<>());
        sim.setTrace(new SimTrace() {
            @Override
            public void pfcSent(long nowPs, String port, int priority, int quanta, long ingressBytes) {
                if (quanta > 0) {
                    firstPause.putIfAbsent(port, nowPs);
                }
            }
        });
        LiveRun live = new LiveRun(sim, 10 * US);
        live.start(true);
        get(live.stepInterval());
        long t = get(live.stepInterval());
        assertEquals(20 * US, t);
        SimSnapshot at = live.latest();
        assertEquals(0, at.totalPauseFrames(), "no pause while XOFF is 1 MB");
        for (int i = 1; i <= 4; i++) {
            long occ = at.ingressBytes()[at.portIndex("leaf0:eth" + i)];
            // About 20 us x 9,375 B/us = 187,500 B minus the start-up: well above the new XOFF.
            assertTrue(occ > 150_000, "ingress eth" + i + " at T: " + occ);
        }
        get(live.setPfcForProfile("pfc", 100_000, 80_000));
        live.resume();
        SimResults r = get(live.result());
        // Each sender's frames arrive back to back, one per 337,600 ps; the first arrival after T sees
        // occupancy above the new XOFF and sends PAUSE: within (T, T + 337,600 ps].
        for (int i = 1; i <= 4; i++) {
            Long p = firstPause.get("leaf0:eth" + i);
            assertNotNull(p, "eth" + i + " paused its sender");
            assertTrue(p > t && p <= t + IncastTest.SER_FULL_100G, "first PAUSE on eth" + i + " at " + p);
        }
        assertEquals(0, r.summary().drops(), "the headroom absorbs what was above the new XOFF");
        assertEquals(100_000, r.pfc().stream().filter(p -> p.port().equals("leaf0:eth1") && p.priority() == 3)
                .findFirst().orElseThrow().xoffBytes(), "the results report the XOFF in force at the end");
    }

    @Test
    void aRefusedCommandFailsItsOwnFutureAndTheRunGoesOn() throws Exception {
        LiveRun live = new LiveRun(incastRun(), 5 * US);
        live.start(true);
        ExecutionException unknown = assertThrows(ExecutionException.class,
                () -> get(live.setEcn("nosuch:eth0", 3, null)));
        assertInstanceOf(IllegalArgumentException.class, unknown.getCause());
        ExecutionException inverted = assertThrows(ExecutionException.class,
                () -> get(live.setEcn("leaf0:eth0", 3, new WredEcn(20_000, 10_000, 0.1))));
        assertTrue(inverted.getCause().getMessage().contains("Kmin"), inverted.getCause().getMessage());
        ExecutionException nic = assertThrows(ExecutionException.class,
                () -> get(live.setPfc("s0:nic0", 100_000, 80_000)));
        assertTrue(nic.getCause().getMessage().contains("NIC"), nic.getCause().getMessage());
        assertThrows(ExecutionException.class, () -> get(live.setPfcForProfile("nosuch", 100_000, 80_000)));
        live.resume();
        assertEquals(SimResults.StopReason.COMPLETED, get(live.result()).run().stopReason());
    }

    // ----- link failure by command ---------------------------------------------------------------------

    @Test
    void aLinkFailedFromTheControlSurfaceMovesTheFlowAfterReconvergence() throws Exception {
        Fabric f = LinkFailureTest.fabric();
        Simulator sim = new Simulator(f, LinkFailureTest.FLOW, SimConfig.defaults());
        sim.setReconvergencePs(50 * US);
        LiveRun live = new LiveRun(sim, 10 * US);
        live.start(true);
        for (int i = 0; i < 10; i++) {
            get(live.stepInterval());
        }
        SimSnapshot s = live.latest();
        String uplink = s.ports().get(s.flowPaths().get(0)[1]);
        assertEquals(0, s.reroutes());
        assertEquals(100 * US, get(live.failLink(f.findLink(uplink))), "failed at the paused instant");
        get(live.stepInterval());
        s = live.latest();
        assertTrue(s.linkDown()[s.portIndex(uplink)], "the direction shows down");
        assertEquals(uplink, s.ports().get(s.flowPaths().get(0)[1]), "before reconvergence the path stays");
        for (int i = 0; i < 5; i++) {
            get(live.stepInterval());
        }
        s = live.latest();
        assertEquals(160 * US, s.timePs());
        assertEquals(1, s.reroutes(), "routing reconverged 50 us after the failure");
        assertNotEquals(uplink, s.ports().get(s.flowPaths().get(0)[1]), "the flow moved to the other spine");
        live.resume();
        SimResults r = get(live.result());
        assertTrue(r.summary().linkDownDrops() > 0);
        assertNotEquals(uplink, r.flows().get(0).path().get(1));
    }

    // ----- snapshots never block the engine ------------------------------------------------------------

    @Test
    void aConsumerThatNeverReadsNeitherStallsNorChangesTheRun() throws Exception {
        Simulator reference = incastRun();
        reference.setSnapshotSink(s -> { }, 1 * US);
        String expected = json(reference.run());

        // Publish every 1 us of simulated time with no wall-clock bound: about 330 snapshots, none read.
        LiveRun live = new LiveRun(incastRun(), 1 * US, 0);
        live.start(false);
        SimResults r = get(live.result());
        assertEquals(expected, json(r));
        long intervals = r.run().simulatedPs() / US;
        assertTrue(live.published() >= intervals, "published " + live.published() + " for " + intervals + " intervals");
        assertEquals(0, live.taken());
        assertNotNull(live.take(), "the slot holds the newest, the final state");
        assertEquals(r.run().simulatedPs(), live.latest().timePs());
        assertEquals(1, live.taken());
    }

    @Test
    void aSlowConsumerGetsOnlyTheNewestAndTheEngineFinishesAsIfAlone() throws Exception {
        Simulator reference = incastRun();
        reference.setSnapshotSink(s -> { }, 1 * US);
        String expected = json(reference.run());

        LiveRun live = new LiveRun(incastRun(), 1 * US, 0);
        List<Long> seen = new ArrayList<>();
        Thread consumer = new Thread(() -> {
            while (!live.result().isDone()) {
                SimSnapshot s = live.take();
                if (s != null) {
                    seen.add(s.timePs());
                }
                try {
                    Thread.sleep(40); // a consumer far slower than the engine
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        live.start(false);
        consumer.start();
        SimResults r = get(live.result());
        consumer.join(10_000);
        assertEquals(expected, json(r), "the slow consumer changed nothing");
        assertTrue(live.taken() < live.published(), "taken " + live.taken() + " of " + live.published());
        for (int i = 1; i < seen.size(); i++) {
            assertTrue(seen.get(i) > seen.get(i - 1), "each take returns a newer snapshot");
        }
    }

    @Test
    void publishingIsBoundedToOneSnapshotPerFrameOfWallTime() throws Exception {
        LiveRun live = new LiveRun(incastRun(), 1 * US);
        long wall0 = System.nanoTime();
        live.start(false);
        get(live.result());
        long wall = System.nanoTime() - wall0;
        // Interval snapshots are at least FRAME_NANOS apart, plus the final one.
        long bound = wall / LiveRun.FRAME_NANOS + 2;
        assertTrue(live.published() <= bound, "published " + live.published() + " in " + wall + " ns");
        assertTrue(live.published() >= 1);
    }

    // ----- errors ------------------------------------------------------------------------------------

    @Test
    void anExceptionInsideTheEngineFailsTheResultAndTheStateNeverHangs() throws Exception {
        Simulator sim = incastRun();
        IllegalStateException bug = new IllegalStateException("injected engine bug");
        sim.setTrace(new SimTrace() {
            int frames;

            @Override
            public void transmitStart(long nowPs, String port, String kind, int priority, int flow, int psn) {
                if (++frames == 1_000) {
                    throw bug;
                }
            }
        });
        LiveRun live = new LiveRun(sim, 5 * US);
        live.start(false);
        ExecutionException e = assertThrows(ExecutionException.class, () -> get(live.result()));
        assertSame(bug, e.getCause());
        assertEquals(LiveRun.State.FAILED, live.state());
        assertSame(bug, live.failure());
        ExecutionException step = assertThrows(ExecutionException.class, () -> get(live.stepEvent()));
        assertSame(bug, step.getCause(), "a step after the failure reports it");
    }

    @Test
    void anExceptionWhilePausedFailsThePendingStep() throws Exception {
        Simulator sim = incastRun();
        LiveRun live = new LiveRun(sim, 5 * US);
        live.start(true);
        get(live.stepInterval());
        sim.submit(c -> {
            throw new ArithmeticException("injected command failure");
        });
        CompletableFuture<Long> step = live.stepEvent();
        ExecutionException e = assertThrows(ExecutionException.class, () -> get(step));
        assertInstanceOf(ArithmeticException.class, e.getCause());
        assertInstanceOf(ArithmeticException.class,
                assertThrows(ExecutionException.class, () -> get(live.result())).getCause());
        assertEquals(LiveRun.State.FAILED, live.state());
    }
}
