package io.fabriclab.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A vertex of the fabric: a GPU server or a switch. Identity is by object (the graph may hold two
 * devices only if their ids differ; {@link Fabric} enforces unique ids).
 */
public final class Device {
    private final String id;
    private DeviceRole role;
    private String model;
    private final Map<String, Port> ports;
    private Integer unit;
    private Integer rail;
    private Integer pod;
    private Integer gpus;
    private ScaleUp scaleUp;
    private String qosProfile;
    private final TreeMap<String, String> labels;

    public Device(String id, DeviceRole role) {
        this.id = Objects.requireNonNull(id, "id");
        this.role = Objects.requireNonNull(role, "role");
        this.ports = new LinkedHashMap<>();
        this.labels = new TreeMap<>();
    }

    /**
     * A copy of {@code d} with copies of its ports, for {@link Fabric#copy()}: the same fields, port
     * order and labels, sharing only immutable values (strings, boxed numbers). The port map is sized
     * for its ports and the labels copied from a sorted map in one pass, so a copy of a fabric with
     * a hundred thousand ports does no rehashing and no re-validation of names already unique. Each
     * original port points to its copy ({@link Port#copy}) until the fabric's copy has its links.
     */
    Device(Device d) {
        this.id = d.id;
        this.role = d.role;
        this.model = d.model;
        this.unit = d.unit;
        this.rail = d.rail;
        this.pod = d.pod;
        this.gpus = d.gpus;
        this.scaleUp = d.scaleUp;
        this.qosProfile = d.qosProfile;
        this.labels = new TreeMap<>(d.labels);
        this.ports = LinkedHashMap.newLinkedHashMap(d.ports.size());
        for (Port p : d.ports.values()) {
            Port n = new Port(this, p);
            p.copy = n;
            ports.put(p.name(), n);
        }
    }

    /** Clears the ports' {@link Port#copy} once a copy of the fabric has its links. */
    void forgetCopies() {
        for (Port p : ports.values()) {
            p.copy = null;
        }
    }

    public String id() {
        return id;
    }

    public DeviceRole role() {
        return role;
    }

    public void setRole(DeviceRole role) {
        this.role = Objects.requireNonNull(role);
    }

    /** Hardware model / SKU as the user wrote it (free text, e.g. "64x400G TH4"); may be null. */
    public String model() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    public List<Port> ports() {
        return Collections.unmodifiableList(new ArrayList<>(ports.values()));
    }

    public int portCount() {
        return ports.size();
    }

    public Port port(String name) {
        return ports.get(name);
    }

    /** Adds a port; names are unique within a device. */
    public Port addPort(String name, int speedGbps) {
        return addPort(name, speedGbps, null);
    }

    public Port addPort(String name, int speedGbps, Integer nic) {
        if (ports.containsKey(name)) {
            throw new IllegalArgumentException("device " + id + " already has a port named " + name);
        }
        Port p = new Port(this, name, speedGbps, nic);
        ports.put(name, p);
        return p;
    }

    /** Adds {@code count} ports named prefix+first .. prefix+(first+count-1). */
    public void addPorts(String prefix, int first, int count, int speedGbps) {
        for (int i = 0; i < count; i++) {
            addPort(prefix + (first + i), speedGbps);
        }
    }

    /** Position of a port in this device's port order, or -1 when it is not (or no longer) here. */
    public int indexOfPort(Port p) {
        int i = 0;
        for (Port q : ports.values()) {
            if (q == p) {
                return i;
            }
            i++;
        }
        return -1;
    }

    /**
     * Puts back a port of this device that was removed, at its old position in the port order, as
     * the same object (so links and undo steps that refer to it stay valid).
     */
    public void restorePort(Port p, int index) {
        if (p.device() != this) {
            throw new IllegalArgumentException("port " + p.ref() + " belongs to another device than " + id);
        }
        if (ports.containsKey(p.name())) {
            throw new IllegalArgumentException("device " + id + " already has a port named " + p.name());
        }
        List<Port> order = new ArrayList<>(ports.values());
        order.add(Math.max(0, Math.min(index, order.size())), p);
        ports.clear();
        for (Port q : order) {
            ports.put(q.name(), q);
        }
    }

    /** Removes a port; the caller (Fabric) must have removed its link first. */
    void removePort(String name) {
        ports.remove(name);
    }

    /** Scalable unit (or pod for leaf-spine) this device belongs to, 0-based; null if none. */
    public Integer unit() {
        return unit;
    }

    public void setUnit(Integer unit) {
        this.unit = unit;
    }

    /** Rail index of a rail leaf (0-based); null otherwise. */
    public Integer rail() {
        return rail;
    }

    public void setRail(Integer rail) {
        this.rail = rail;
    }

    /** Pod / spine group of a three-tier fabric (0-based); null otherwise. */
    public Integer pod() {
        return pod;
    }

    public void setPod(Integer pod) {
        this.pod = pod;
    }

    /** GPUs in a server; when unset a server has one GPU per NIC. Always 0 for switches. */
    public int gpus() {
        if (role != DeviceRole.SERVER) {
            return 0;
        }
        if (gpus != null) {
            return gpus;
        }
        // The distinct NIC indexes among the ports, without allocating for the usual ones (0-63): the
        // editor sums this over every server after each edit (16,384 GPUs on the 64-unit fabric).
        int count = 0;
        long seen = 0;
        java.util.Set<Integer> others = null;
        for (Port p : ports.values()) {
            Integer nic = p.nic();
            if (nic == null) {
                continue;
            }
            int n = nic;
            if (n >= 0 && n < Long.SIZE) {
                if ((seen & (1L << n)) == 0) {
                    seen |= 1L << n;
                    count++;
                }
            } else {
                if (others == null) {
                    others = new java.util.HashSet<>();
                }
                if (others.add(n)) {
                    count++;
                }
            }
        }
        return count;
    }

    /** The explicitly set GPU count, or null when derived from the NICs. */
    public Integer gpusOverride() {
        return gpus;
    }

    public void setGpus(Integer gpus) {
        this.gpus = gpus;
    }

    /**
     * The server's scale-up domain (NVLink / NVSwitch) as the fabric file declares it, or null when
     * it declares none; always null for switches. See {@link #scaleUpOrDefault()}.
     */
    public ScaleUp scaleUp() {
        return role == DeviceRole.SERVER ? scaleUp : null;
    }

    public void setScaleUp(ScaleUp scaleUp) {
        this.scaleUp = scaleUp;
    }

    /**
     * The domain traffic between this server's GPUs uses: the declared one, or
     * {@link ScaleUp#DEFAULT} (H100, NVLink 4) when the file declares none (results say so).
     */
    public ScaleUp scaleUpOrDefault() {
        ScaleUp s = scaleUp();
        return s != null ? s : ScaleUp.DEFAULT;
    }

    public String qosProfile() {
        return qosProfile;
    }

    public void setQosProfile(String qosProfile) {
        this.qosProfile = qosProfile;
    }

    /** Free-form key/value labels (e.g. containerlab kind and image); kept through every format. */
    public Map<String, String> labels() {
        return labels;
    }

    @Override
    public String toString() {
        return id;
    }
}
