package io.fabriclab.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimResults;

/**
 * The run service (issue 31): one run built, run and cancelled; several run on a pool in request
 * order, each built when it starts; a run that cannot be built stops the lot, naming it; a run of
 * more than {@link RunService#aloneTasks} tasks has the machine to itself.
 */
class RunServiceTest {
    @TempDir
    Path dir;

    private Scenario scenario() throws Exception {
        Files.copy(Path.of("resources/examples/classic-leaf-spine.json"), dir.resolve("f.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path s = Files.writeString(dir.resolve("s.json"), """
                {"schemaVersion": 1, "name": "small incast", "fabric": "f.json", "seed": 1,
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 100000}]}
                """);
        return ScenarioJson.read(s, FabricReader.FILES);
    }

    @Test
    void aRunIsBuiltRunOnceAndNamesItsEngine() throws Exception {
        Scenario s = scenario();
        for (Engine e : Engine.values()) {
            RunService.Run run = RunService.prepare(new RunService.Request("x", s, e));
            SimResults r = run.run(null);
            assertEquals(e.jsonName(), r.run().engine());
            assertEquals(SimResults.StopReason.COMPLETED, r.run().stopReason());
            assertThrows(IllegalStateException.class, () -> run.run(null), "a run runs once");
        }
    }

    /**
     * Cancelled before it starts, a run stops at the engine's first look at the stop flag (the packet
     * engine looks every 262,144 events): the k=8 fat-tree permutation has many more.
     */
    @Test
    void aRunCancelledBeforeItStartsStopsAtTheFirstLook() throws Exception {
        Scenario s = ScenarioJson.read(Path.of("resources/scenarios/bench-fattree-k8-permutation.json"), FabricReader.FILES);
        RunService.Run run = RunService.prepare(RunService.Request.of(s));
        run.cancel();
        assertTrue(run.cancelled());
        SimResults r = run.run(null);
        assertEquals(SimResults.StopReason.STOPPED, r.run().stopReason());
        assertTrue(r.run().flowsCompleted() < r.run().flows());
    }

    @Test
    void severalRunsComeBackInRequestOrderEachReported() throws Exception {
        Scenario s = scenario();
        List<RunService.Request> rs = List.of(
                new RunService.Request("rocev2", s.withTransport(Transport.ROCEV2, n -> { }), Engine.PACKET),
                new RunService.Request("infiniband", s.withTransport(Transport.INFINIBAND, n -> { }), Engine.PACKET),
                new RunService.Request("flow", s, Engine.FLOW));
        java.util.Map<String, Integer> finished = new ConcurrentHashMap<>();
        AtomicInteger order = new AtomicInteger();
        List<SimResults> out = RunService.runAll(rs, 2, new RunService.Listener() {
            @Override
            public void finished(RunService.Request request, SimResults results) {
                finished.put(request.label(), order.incrementAndGet());
            }
        });
        assertEquals(3, out.size());
        assertEquals(3, finished.size(), "each run reported its end");
        assertEquals("packet", out.get(0).run().engine());
        assertEquals("packet", out.get(1).run().engine());
        assertEquals("flow", out.get(2).run().engine());
        // Each as if run alone.
        assertEquals(RunService.prepare(rs.get(1)).run(null).summary(), out.get(1).summary());
    }

    @Test
    void aRunThatCannotBeBuiltStopsTheLotNamingIt() throws Exception {
        Scenario s = scenario();
        // Telemetry too big to record: refused when built.
        Scenario huge = s.withConfig(s.config().withDurationPs(Long.MAX_VALUE / 4).withSampleIntervalPs(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunService.runAll(List.of(
                new RunService.Request("fine", s, Engine.PACKET), new RunService.Request("huge", huge, Engine.PACKET)),
                1, RunService.QUIET));
        assertTrue(e.getMessage().startsWith("huge: "), e.getMessage());
    }

    @Test
    void aLargeRunRunsAlone() throws Exception {
        Scenario s = scenario();
        List<RunService.Request> rs = List.of(RunService.Request.of(s), RunService.Request.of(s));
        assertEquals(2, RunService.Batch.threadsFor(rs, 2) > 1 ? 2 : RunService.Batch.threadsFor(rs, 2),
                "small runs side by side while cores allow");
        int before = RunService.aloneTasks;
        RunService.aloneTasks = 1;
        try {
            assertEquals(1, RunService.Batch.threadsFor(rs, 2), "more than aloneTasks tasks: one at a time");
            List<SimResults> out = RunService.runAll(rs, 2, RunService.QUIET);
            assertEquals(out.get(0).summary(), out.get(1).summary());
        } finally {
            RunService.aloneTasks = before;
        }
    }

    @Test
    void aBatchCancelledStopsItsRuns() throws Exception {
        Scenario s = ScenarioJson.read(Path.of("resources/scenarios/bench-fattree-k8-permutation.json"), FabricReader.FILES);
        RunService.Batch b = RunService.start(List.of(RunService.Request.of(s), RunService.Request.of(s)), 1,
                RunService.QUIET);
        b.cancel();
        for (SimResults r : b.results()) {
            // Either never started (null) or stopped at once.
            if (r != null) {
                assertEquals(SimResults.StopReason.STOPPED, r.run().stopReason());
            } else {
                assertNull(r);
            }
        }
    }
}
