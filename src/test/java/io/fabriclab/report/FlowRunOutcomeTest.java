package io.fabriclab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.FlowEngine;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.sim.TransportProfile;
import io.fabriclab.workload.FlowSpec;

/**
 * A flow-engine run in the design review: it has no packets, so no pause, mark, drop or deadlock
 * can show; it passes no lossless check ("not simulated", with the reason), while the same incast
 * on the packet engine is judged as before.
 */
class FlowRunOutcomeTest {
    @Test
    void aFlowRunPassesNoLosslessCheckAndSaysWhy() {
        Fabric f = io.fabriclab.sim.TestFabrics.star(9, 100, 1.0, QosProfile.roceLossless("lossless", 100));
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            flows.add(new FlowSpec("s" + i + ":nic0", "s0:nic0", 500_000, 0, 3, "incast"));
        }
        SimResults fluid = new FlowEngine(f, flows, SimConfig.defaults(), TransportProfile.of(Transport.ROCEV2)).run(null);
        ReportRun flowRun = new ReportRun("incast (flow)", "test", null, fluid, null, null);
        RunOutcome o = RunOutcome.of(flowRun, f);
        assertEquals(Status.NOT_SIMULATED, o.status());
        // Then the links it names for the packet engine: the receiver's link, busy the whole run
        // (8 x 500 kB at 100G) and reached by 8 transfers at once; not the senders' own links (each
        // sender at 12.5 Gb/s of its 100 while the fluid shares s0's link: 12.5 % busy).
        assertEquals(List.of(RunOutcome.NOT_AT_PACKET_LEVEL,
                RunOutcome.LOOK_CLOSER + "leaf0:eth0 -> s0:nic0 100 % busy, 8 transfers arriving at once"), o.reasons());
        assertTrue(o.evidence().contains("8/8 flows completed") && o.evidence().contains("flow engine"), o.evidence());
        // The packet engine's run of the same incast is judged on what it did (no lossless loss here).
        SimResults packets = new Simulator(f, flows, SimConfig.defaults()).run();
        RunOutcome p = RunOutcome.of(new ReportRun("incast (packet)", "test", null, packets, null, null), f);
        assertTrue(p.status() == Status.PASS || p.status() == Status.WARN, p.toString());
        // In the checklist the incast item is then covered only by a run that cannot judge it.
        ValidationChecklist c = ValidationChecklist.of(f, List.of(flowRun), java.util.Map.of(flowRun, o));
        ValidationChecklist.Item incast = c.items().stream().filter(i -> i.kind() == ValidationChecklist.Kind.INCAST)
                .findFirst().orElseThrow();
        assertEquals(Status.NOT_SIMULATED, incast.status(), incast.toString());
        // Its findings: what it cannot judge (info) and the link to look at (a warning naming it),
        // not the packet engine's codes for lossless drops or retransmissions it never saw.
        DesignReview review = DesignReview.build(ReportTestInputs.of(f, List.of(flowRun)), DesignReview.Progress.NONE);
        List<ReviewFinding> sim = review.findings().stream().filter(x -> x.source().equals("simulation")).toList();
        assertEquals(List.of("SIM_LOOK_CLOSER", "SIM_FLOW_LEVEL"), sim.stream().map(ReviewFinding::code).toList());
        assertEquals(io.fabriclab.topology.Finding.Severity.WARNING, sim.get(0).severity());
        assertTrue(sim.get(0).evidence().contains("leaf0:eth0 -> s0:nic0 100 % busy, 8 transfers arriving at once"),
                sim.get(0).evidence());
    }
}
