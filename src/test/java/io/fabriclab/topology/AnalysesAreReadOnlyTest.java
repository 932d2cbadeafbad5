package io.fabriclab.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.routing.EcmpPathCounter;

import org.junit.jupiter.api.Test;

class AnalysesAreReadOnlyTest {

    /** Everything an analysis could touch, as text. */
    private static String snapshot(Fabric f) {
        StringBuilder sb = new StringBuilder(f.name()).append('|').append(f.mtuBytes()).append('|')
                .append(f.defaultQosProfile()).append('|').append(f.qosProfiles()).append('\n');
        for (Device d : f.devices()) {
            sb.append(d.id()).append(' ').append(d.role()).append(' ').append(d.unit()).append(' ').append(d.rail())
                    .append(' ').append(d.pod()).append(' ').append(d.qosProfile()).append(' ').append(d.labels());
            for (Port p : d.ports()) {
                sb.append(' ').append(p.name()).append('/').append(p.speedGbps()).append('/').append(p.nic()).append('/')
                        .append(p.qosProfile());
            }
            sb.append('\n');
        }
        for (Link l : f.links()) {
            sb.append(l.id()).append(' ').append(l.speedGbps()).append(' ').append(l.cableLengthM()).append(' ')
                    .append(l.cableType()).append(' ').append(l.state()).append('\n');
        }
        return sb.toString();
    }

    @Test
    void noAnalysisChangesTheFabric() {
        Fabric f = ExampleFabrics.deadlockProne();
        String before = snapshot(f);
        Link trigger = ExampleFabrics.deadlockTrigger(f);
        EcmpPathCounter.of(f).statistics();
        HopStats.of(f);
        FailureImpact.analyze(f).ranked();
        FailureImpact.detail(f, trigger);
        FailureImpact.detail(f, f.device("spine1"));
        HeadroomCalculator.check(f);
        DeadlockCheck.check(f);
        DeadlockCheck.check(f, Set.of(f.device("leaf1")), Set.of(trigger));
        Lint.check(f);
        assertEquals(before, snapshot(f));
    }
}
