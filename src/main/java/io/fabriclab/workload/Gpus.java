package io.fabriclab.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Port;

/**
 * GPUs of a fabric's servers and the NIC each one uses. A GPU is named "server:gpuK" (K from 0 to
 * the server's GPUs - 1). GPU K uses the server's NIC of index floor(K x nics / gpus) among its
 * connected NICs in NIC-index order: on a server with one NIC per GPU (DGX-style, rail-optimized)
 * GPU K's NIC is NIC K, on rail K.
 */
public final class Gpus {
    private Gpus() {
    }

    public static String ref(Device server, int k) {
        return server.id() + ":gpu" + k;
    }

    /** Every GPU of every server that has a connected NIC, servers in fabric order. */
    public static List<String> all(Fabric fabric) {
        List<String> out = new ArrayList<>();
        for (Device s : fabric.servers()) {
            if (!nics(fabric, s).isEmpty()) {
                for (int k = 0; k < s.gpus(); k++) {
                    out.add(ref(s, k));
                }
            }
        }
        return out;
    }

    /** The server of a GPU reference, or null. */
    public static Device server(Fabric fabric, String gpu) {
        int c = gpu.lastIndexOf(':');
        if (c <= 0 || !gpu.startsWith("gpu", c + 1)) {
            return null;
        }
        Device d = fabric.device(gpu.substring(0, c));
        return d != null && d.role() == DeviceRole.SERVER ? d : null;
    }

    /** K of "server:gpuK", or -1. */
    public static int index(String gpu) {
        int c = gpu.lastIndexOf(':');
        try {
            return Integer.parseInt(gpu.substring(c + 4));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** True when {@code gpu} names a GPU of a server of {@code fabric}. */
    public static boolean exists(Fabric fabric, String gpu) {
        Device d = server(fabric, gpu);
        int k = index(gpu);
        return d != null && k >= 0 && k < d.gpus();
    }

    /** The connected NIC ports of a server in NIC-index order (port order when unindexed). */
    public static List<Port> nics(Fabric fabric, Device server) {
        List<Port> connected = new ArrayList<>();
        for (Port p : server.ports()) {
            if (fabric.linkAt(p) != null) {
                connected.add(p);
            }
        }
        TreeSet<Integer> idx = new TreeSet<>();
        for (Port p : connected) {
            if (p.nic() != null) {
                idx.add(p.nic());
            }
        }
        if (idx.size() != connected.size()) {
            return connected;
        }
        List<Port> out = new ArrayList<>();
        for (int i : idx) {
            for (Port p : connected) {
                if (p.nic() == i) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** The NIC port ("server:port") GPU {@code gpu} sends and receives through. */
    public static String nicOf(Fabric fabric, String gpu) {
        Device d = server(fabric, gpu);
        int k = index(gpu);
        if (d == null || k < 0 || k >= d.gpus()) {
            throw new IllegalArgumentException("GPU '" + gpu + "' not found (use server:gpuK)");
        }
        List<Port> n = nics(fabric, d);
        if (n.isEmpty()) {
            throw new IllegalArgumentException("GPU '" + gpu + "': its server has no connected NIC");
        }
        return n.get((int) ((long) k * n.size() / d.gpus())).ref();
    }

    /** The local GPU index on server {@code d} whose NIC is rail (NIC position) {@code rail}. */
    public static int gpuOnRail(Fabric fabric, Device d, int rail) {
        return gpuOnRail(rail, nics(fabric, d).size(), d.gpus());
    }

    /** The local GPU index, of {@code gpus}, whose NIC is rail {@code rail} of {@code nics}. */
    public static int gpuOnRail(int rail, int nics, int gpus) {
        // The first GPU K with floor(K nics / gpus) == rail.
        return (int) (((long) rail * gpus + nics - 1) / nics);
    }

    /** The rail (position among the server's NICs) of GPU K of server {@code d}. */
    public static int railOf(Fabric fabric, Device d, int k) {
        return railOf(k, nics(fabric, d).size(), d.gpus());
    }

    /** The rail of GPU K of a server with {@code nics} connected NICs and {@code gpus} GPUs. */
    public static int railOf(int k, int nics, int gpus) {
        return (int) ((long) k * nics / gpus);
    }
}
