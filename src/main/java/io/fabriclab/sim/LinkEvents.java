package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Units;

/**
 * Links failing, coming back and changing speed during a run, and routing's reconvergence after
 * each change: what is queued for a dead wire is lost, and {@link #reconvergencePs} later every
 * unfinished flow gets the ECMP path of the new routing.
 */
final class LinkEvents {
    private final Simulator sim;
    private final Fabric fabric;
    private final List<Link> links;
    private final EgressPort[] ports;
    private final Flow[] flows;
    private final FlowPaths paths;
    private final EventQueue events;
    private final PacketPool pkts;
    private final Set<Link> downLinks = Collections.newSetFromMap(new IdentityHashMap<>());
    final List<LinkFailure> failures = new ArrayList<>();
    long reconvergencePs = 50 * Units.PS_PER_US;
    int reroutes;

    LinkEvents(Simulator sim, Fabric fabric, List<Link> links, EgressPort[] ports, Flow[] flows, FlowPaths paths,
               EventQueue events, PacketPool pkts) {
        this.sim = sim;
        this.fabric = fabric;
        this.links = links;
        this.ports = ports;
        this.flows = flows;
        this.paths = paths;
        this.events = events;
        this.pkts = pkts;
    }

    /** Queues the events of every scheduled failure (at the start of the run). */
    void scheduleAll(java.util.Map<Link, Integer> linkIndex) {
        for (LinkFailure lf : failures) {
            int li = linkIndex.get(lf.link());
            if (lf.degradedGbps() > 0) {
                events.push(lf.downPs(), Simulator.EV_LINK_SPEED, li, lf.degradedGbps());
                if (lf.upPs() > lf.downPs()) {
                    events.push(lf.upPs(), Simulator.EV_LINK_SPEED, li, lf.link().speedGbps());
                }
                continue;
            }
            events.push(lf.downPs(), Simulator.EV_LINK_DOWN, li, 0);
            if (lf.upPs() > lf.downPs()) {
                events.push(lf.upPs(), Simulator.EV_LINK_UP, li, 0);
            }
        }
    }

    /** {@link Simulator#EV_LINK_DOWN}. */
    void down(int li) {
        Link l = links.get(li);
        SnapshotBuilder snapshots = sim.live.snapshots;
        if (snapshots != null) {
            // A failed link is drawn as failed even if no traffic ever reached it.
            snapshots.include(ports[2 * li]);
        }
        if (downLinks.add(l)) {
            sim.downLinkCount++;
        }
        for (EgressPort p : new EgressPort[] {ports[2 * li], ports[2 * li + 1]}) {
            p.down = true;
            // Everything queued for the dead wire is lost.
            for (int c = 0; c <= EgressPort.CLASSES; c++) {
                while (p.hasPackets(c)) {
                    int pkt = c == EgressPort.CONTROL ? sim.popControl(p) : sim.pop(p, c);
                    if (c < EgressPort.CLASSES && p.sw != null) {
                        sim.releaseIngress(p.polledIngress(), c, p.polledBytes());
                    }
                    sim.drop(p, pkts.priority(pkt), pkt, DropCause.LINK_DOWN);
                }
            }
        }
        events.push(sim.now + reconvergencePs, Simulator.EV_REROUTE, 0, 0);
    }

    /** {@link Simulator#EV_LINK_SPEED}: the link renegotiates to {@code gbps}; frames from now on serialize at the new rate. */
    void speed(int li, int gbps) {
        for (EgressPort p : new EgressPort[] {ports[2 * li], ports[2 * li + 1]}) {
            p.setRates(Units.gbpsToBps(gbps), p.backgroundShare);
            p.pfcReactionPs = Pfc.reactionPs(gbps, p.lineRateBps);
        }
    }

    /** {@link Simulator#EV_LINK_UP}. */
    void up(int li) {
        if (downLinks.remove(links.get(li))) {
            sim.downLinkCount--;
        }
        ports[2 * li].down = false;
        ports[2 * li + 1].down = false;
        if (sim.credits != null) {
            sim.credits.linkUp(2 * li);
        }
        events.push(sim.now + reconvergencePs, Simulator.EV_REROUTE, 0, 0);
        sim.transmit(ports[2 * li]);
        sim.transmit(ports[2 * li + 1]);
    }

    /** {@link Simulator#EV_REROUTE}: routing reconverges; new ECMP paths for every unfinished flow (unreachable flows keep theirs). */
    void reroute() {
        paths.recompute(fabric, downLinks);
        if (sim.selector != null) {
            sim.selector.routingChanged(paths.routing);
            if (paths.tables != null) {
                sim.selector.tablesChanged(paths.tables);
            }
        }
        reroutes++;
        for (Flow f : flows) {
            if (f.done && f.senderDone) {
                continue;
            }
            int srcAddr = f.srcPort.nic.address;
            int dstAddr = f.dstPort.nic.address;
            int[] fwd = paths.path(f.srcPort.port, f.dstPort.port, srcAddr, dstAddr, f.udpSourcePort);
            int[] rev = paths.path(f.dstPort.port, f.srcPort.port, dstAddr, srcAddr, f.udpSourcePort);
            if (fwd != null && rev != null && (!Arrays.equals(fwd, f.forwardPath())
                    || !Arrays.equals(rev, f.reversePaths[f.pathVersion]))) {
                f.reroute(fwd, rev);
                f.forwardBase = paths.store(fwd);
                f.reverseBase = paths.store(rev);
            }
        }
    }
}
