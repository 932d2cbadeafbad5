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

    /** The NIC port named "server:port" or "server:nicK" (K = the port's NIC index), or null. */
    public static Port resolve(Fabric fabric, String ref) {
        Port p = fabric.port(ref);
        if (p != null) {
            return p;
        }
        int i = ref.lastIndexOf(':');
        if (i <= 0 || !ref.startsWith("nic", i + 1)) {
            return null;
        }
        Device d = fabric.device(ref.substring(0, i));
        if (d == null) {
            return null;
        }
        try {
            int k = Integer.parseInt(ref.substring(i + 4));
            return d.ports().stream().filter(x -> x.nic() != null && x.nic() == k).findFirst().orElse(null);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
