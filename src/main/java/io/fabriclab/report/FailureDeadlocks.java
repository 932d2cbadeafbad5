package io.fabriclab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.FailureImpact;

/**
 * The deadlock check repeated with failures: a PFC deadlock usually needs a failure (a bounce path
 * through a lower tier closes a ring of buffer dependencies). Small fabrics get every single
 * switch-to-switch link and every switch checked; large ones the failures the impact sweep ranks
 * worst (each check recomputes routing, about a second on a 16,384-GPU fabric), plus the failure
 * the user asked for.
 *
 * @param checked    every failure checked, with its result
 * @param exhaustive true when every single inter-switch link and switch was checked
 */
public record FailureDeadlocks(List<Case> checked, boolean exhaustive, int candidates) {

    /** All single inter-switch failures are checked up to this many; above, the worst ranked. */
    static final int EXHAUSTIVE_UP_TO = 160;
    /** Failures checked on a large fabric (worst links, and half as many switches, of the impact ranking). */
    static final int SAMPLE = 6;
    /** Above this many inter-switch links (a 16,384-GPU fabric has 32,768), fewer: 2 links and 1 switch. */
    static final int LARGE = 4096;

    public record Case(String failed, String kind, DeadlockCheck.Result result) {
    }

    public List<Case> deadlocking() {
        return checked.stream().filter(c -> !c.result().deadlockFree()).toList();
    }

    static FailureDeadlocks of(Fabric fabric, FabricAnalysis a) {
        Map<String, Case> out = new LinkedHashMap<>();
        if (a.failure() != null) {
            out.put(a.failure().spec(), new Case(a.failure().spec(), "as asked", a.deadlock()));
        }
        List<Link> links = fabric.links().stream()
                .filter(l -> l.a().device().role().isSwitch() && l.b().device().role().isSwitch()).toList();
        List<Device> switches = fabric.switches();
        int candidates = links.size() + switches.size();
        boolean exhaustive = candidates <= EXHAUSTIVE_UP_TO;
        List<Object> todo = new ArrayList<>();
        if (exhaustive) {
            todo.addAll(links);
            todo.addAll(switches);
        } else if (a.failureImpact() != null) {
            int sample = links.size() > LARGE ? 2 : SAMPLE;
            int nLinks = 0;
            int nSwitches = 0;
            for (FailureImpact.Item i : a.failureImpact().ranked()) {
                if (i.kind() == FailureImpact.Kind.LINK && nLinks < sample) {
                    Link l = fabric.link(i.subject());
                    if (l != null) {
                        todo.add(l);
                        nLinks++;
                    }
                } else if (i.kind() == FailureImpact.Kind.SWITCH && nSwitches < sample / 2) {
                    Device d = fabric.device(i.subject());
                    if (d != null) {
                        todo.add(d);
                        nSwitches++;
                    }
                }
                if (nLinks >= sample && nSwitches >= sample / 2) {
                    break;
                }
            }
        } else {
            links.stream().limit(links.size() > LARGE ? 2 : SAMPLE).forEach(todo::add);
        }
        for (Object o : todo) {
            if (o instanceof Link l && !out.containsKey(l.id())) {
                out.put(l.id(), new Case(l.id(), "link", DeadlockCheck.check(fabric, Set.of(), Set.of(l))));
            } else if (o instanceof Device d && !out.containsKey(d.id())) {
                out.put(d.id(), new Case(d.id(), d.role().jsonName(), DeadlockCheck.check(fabric, Set.of(d), Set.of())));
            }
        }
        return new FailureDeadlocks(List.copyOf(out.values()), exhaustive, candidates);
    }
}
