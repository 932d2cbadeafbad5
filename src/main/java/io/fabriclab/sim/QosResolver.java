package io.fabriclab.sim;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;

/** The QoS profile in force on a port for a run (the fabric's, possibly rewritten by a scenario). */
@FunctionalInterface
public interface QosResolver {
    QosProfile qosFor(Port port);

    /**
     * The fabric's own assignment (port, then device, then fabric default); a port without any gets
     * the lossless RoCEv2 profile for its speed.
     */
    static QosResolver of(Fabric fabric) {
        return p -> {
            QosProfile q = fabric.qosFor(p);
            return q != null ? q : QosProfile.roceLossless("default", speedOf(fabric, p));
        };
    }

    /** The speed a port actually runs at: its link's, else the port's own. */
    static int speedOf(Fabric fabric, Port p) {
        var l = fabric.linkAt(p);
        return l != null ? l.speedGbps() : p.speedGbps();
    }
}
