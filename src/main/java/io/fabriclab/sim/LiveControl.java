package io.fabriclab.sim;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import io.fabriclab.model.Link;
import io.fabriclab.model.WredEcn;

/**
 * The live view's side of a run: snapshots out (every interval of simulated time, at most at a
 * bounded wall-clock rate) and commands in (queued from any thread, applied on the simulator
 * thread between events: fail or restore a link, change ECN curves and PFC thresholds).
 */
final class LiveControl {
    private final Simulator sim;
    private final EgressPort[] ports;
    private final QosResolver qos;
    private final EventQueue events;
    final ConcurrentLinkedQueue<Consumer<Simulator.Control>> commands = new ConcurrentLinkedQueue<>();
    private final Simulator.Control control = new Commands();

    Consumer<SimSnapshot> snapshotSink;
    long snapshotEveryPs;
    /** Published snapshots are at least this far apart in wall time (0: every interval). */
    long snapshotMinWallNanos;
    private long lastPublishWallNanos;
    volatile SnapshotBuilder snapshots;
    boolean wholeFabricSnapshots;
    /** Bumped by every live threshold change, so snapshots rebuild their threshold list. */
    private int thresholdsVersion;

    LiveControl(Simulator sim, EgressPort[] ports, QosResolver qos, EventQueue events) {
        this.sim = sim;
        this.ports = ports;
        this.qos = qos;
        this.events = events;
    }

    /** Runs the queued commands; returns how many ran. */
    int applyCommands() {
        Consumer<Simulator.Control> c;
        int ran = 0;
        while ((c = commands.poll()) != null) {
            c.accept(control);
            ran++;
        }
        return ran;
    }

    /** {@link Simulator#EV_SNAPSHOT}: commands, then a snapshot if the wall-clock rate allows, then the next interval. */
    void snapshot() {
        applyCommands();
        long now = sim.now;
        if (snapshotMinWallNanos == 0) {
            publishSnapshot(now);
        } else {
            long t = System.nanoTime();
            if (lastPublishWallNanos == 0 || t - lastPublishWallNanos >= snapshotMinWallNanos) {
                lastPublishWallNanos = t;
                publishSnapshot(now);
            }
        }
        events.push(now + snapshotEveryPs, Simulator.EV_SNAPSHOT, 0, 0);
    }

    /** Builds and publishes a snapshot of the state at {@code atPs}. Simulator thread only. */
    void publishSnapshot(long atPs) {
        if (snapshotSink == null) {
            return;
        }
        if (snapshots == null) {
            snapshots = new SnapshotBuilder(ports, sim.flows(), sim.flowPhase, sim.touchedPorts(), wholeFabricSnapshots);
            snapshots.credits = sim.credits;
            if (sim.local != null) {
                snapshots.scaleUp = () -> sim.local.activity(sim.now);
            }
        }
        snapshotSink.accept(snapshots.build(atPs, sim.eventCount(), sim.flows().length - sim.flowsRemaining,
                thresholdsVersion, sim.reroutes(), sim.deadlocksFound()));
    }

    private EgressPort egressPort(String ref) {
        for (EgressPort p : ports) {
            if (p.ref().equals(ref)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no port " + ref + " in this run (use device:port of a connected port)");
    }

    private static void checkCurve(int trafficClass, WredEcn curve) {
        if (trafficClass < 0 || trafficClass >= EgressPort.CLASSES) {
            throw new IllegalArgumentException("traffic class " + trafficClass + " is not in 0..7");
        }
        if (curve != null && (curve.kminBytes() < 0 || curve.kmaxBytes() < curve.kminBytes()
                || !(curve.pmax() >= 0 && curve.pmax() <= 1))) {
            throw new IllegalArgumentException("ECN curve needs 0 <= Kmin <= Kmax and 0 <= Pmax <= 1, got Kmin "
                    + curve.kminBytes() + " B, Kmax " + curve.kmaxBytes() + " B, Pmax " + curve.pmax());
        }
    }

    private static void checkPfc(long xoffBytes, long xonBytes) {
        if (xoffBytes <= 0 || xonBytes < 0 || xonBytes > xoffBytes) {
            throw new IllegalArgumentException("PFC thresholds need 0 <= XON <= XOFF and XOFF > 0, got XOFF "
                    + xoffBytes + " B, XON " + xonBytes + " B");
        }
    }

    /** What a command may change, on the simulator thread. */
    private final class Commands implements Simulator.Control {
        @Override
        public long nowPs() {
            return sim.now;
        }

        @Override
        public void failLink(Link link) {
            int li = sim.linkIndexOf(link);
            if (!ports[2 * li].down) {
                sim.linkEvents.down(li);
            }
        }

        @Override
        public void restoreLink(Link link) {
            int li = sim.linkIndexOf(link);
            if (ports[2 * li].down) {
                sim.linkEvents.up(li);
            }
        }

        @Override
        public void setWred(String port, int trafficClass, WredEcn curve) {
            checkCurve(trafficClass, curve);
            egressPort(port).wred[trafficClass] = curve;
            thresholdsVersion++;
        }

        @Override
        public int setWredForProfile(String profile, int trafficClass, WredEcn curve) {
            checkCurve(trafficClass, curve);
            int changed = 0;
            for (EgressPort p : ports) {
                if (profile.equals(qos.qosFor(p.port).name())) {
                    p.wred[trafficClass] = curve;
                    changed++;
                }
            }
            thresholdsVersion++;
            return changed;
        }

        @Override
        public void setPfcThresholds(String port, long xoffBytes, long xonBytes) {
            checkPfc(xoffBytes, xonBytes);
            EgressPort p = egressPort(port);
            if (p.sw == null) {
                throw new IllegalArgumentException(port + " is a NIC port; PFC thresholds are set on switch ports");
            }
            p.xoffBytes = xoffBytes;
            p.xonBytes = xonBytes;
            thresholdsVersion++;
        }

        @Override
        public int setPfcThresholdsForProfile(String profile, long xoffBytes, long xonBytes) {
            checkPfc(xoffBytes, xonBytes);
            int changed = 0;
            for (EgressPort p : ports) {
                if (p.sw != null && profile.equals(qos.qosFor(p.port).name())) {
                    p.xoffBytes = xoffBytes;
                    p.xonBytes = xonBytes;
                    changed++;
                }
            }
            thresholdsVersion++;
            return changed;
        }
    }
}
