package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;

/** NIC selection helpers shared by workloads. */
public final class Nics {
    private Nics() {
    }

    /** Every connected NIC port of every server, in fabric order, as "server:port". */
    public static List<String> all(Fabric fabric) {
        List<String> out = new ArrayList<>();
        for (Device s : fabric.servers()) {
            for (Port p : s.ports()) {
                if (fabric.linkAt(p) != null) {
                    out.add(p.ref());
                }
            }
        }
        return out;
    }
}
