package io.fabriclab.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

import org.jgrapht.Graph;
import org.jgrapht.Graphs;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.MaskSubgraph;
import org.jgrapht.graph.builder.GraphTypeBuilder;

/**
 * A fabric: devices (vertices) and full-duplex links (edges) in an undirected JGraphT multigraph
 * (parallel links allowed, self-loops not), plus the named QoS profiles the devices and ports use.
 * All mutation goes through this class so the graph, the id indexes and the ports stay in step.
 */
public final class Fabric {
    /** The default MTU of RoCEv2 payload plus headers on an AI fabric: a 4096 B RDMA MTU frame. */
    public static final int DEFAULT_MTU_BYTES = 4200;

    private String name;
    private String description = "";
    private int mtuBytes = DEFAULT_MTU_BYTES;
    private final Map<String, Device> devices;
    private final Map<String, QosProfile> qosProfiles = new LinkedHashMap<>();
    private String defaultQosProfile;
    private Layout layout = new Layout();
    /**
     * The graph and the link indexes; null on a copy until first used ({@link #index()}). Guarded
     * by {@link #lock} while null: a copy may be handed to another thread before its first use.
     */
    private volatile Index index;
    /** A copy's links in order, until its index is built from them. */
    private List<Link> unindexedLinks;
    /** Held while a copy is taken of this fabric and while this copy's index is built. */
    private final Object lock = new Object();

    /**
     * What follows from the devices and links: the JGraphT multigraph, links by id (in the fabric's
     * link order) and by port. Kept in step by every mutation of this class.
     */
    private static final class Index {
        final Graph<Device, Link> graph = GraphTypeBuilder.<Device, Link>undirected()
                .allowingMultipleEdges(true).allowingSelfLoops(false).weighted(false).buildGraph();
        final Map<String, Link> links;
        final Map<Port, Link> linkByPort;

        Index(int linkCount) {
            links = LinkedHashMap.newLinkedHashMap(linkCount);
            linkByPort = new IdentityHashMap<>(2 * linkCount);
        }

        void add(Link l) {
            graph.addEdge(l.a().device(), l.b().device(), l);
            links.put(l.id(), l);
            linkByPort.put(l.a(), l);
            linkByPort.put(l.b(), l);
        }
    }

    public Fabric(String name) {
        this.name = Objects.requireNonNull(name);
        this.devices = new LinkedHashMap<>();
        this.index = new Index(0);
    }

    /** A copy's shell: devices in a map sized for them, the links and the index to come ({@link #copy()}). */
    private Fabric(String name, int deviceCount) {
        this.name = Objects.requireNonNull(name);
        this.devices = LinkedHashMap.newLinkedHashMap(deviceCount);
    }

    /**
     * The graph and link indexes, built on first use on a copy: from its devices in order, then its
     * links in order, as {@link #addDevice(Device)} and {@link #addLink(Link)} would have built them
     * (the same vertex and edge order, so every walk of the graph sees what it saw on the original).
     * A copy is taken on the FX thread and mostly read on a background thread, which so builds them.
     */
    private Index index() {
        Index i = index;
        if (i != null) {
            return i;
        }
        synchronized (lock) {
            if (index == null) {
                Index built = new Index(unindexedLinks.size());
                devices.values().forEach(built.graph::addVertex);
                unindexedLinks.forEach(built::add);
                unindexedLinks = null;
                index = built;
            }
            return index;
        }
    }

    // ----- identity --------------------------------------------------------------------------

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = Objects.requireNonNull(name);
    }

    public String description() {
        return description;
    }

    public void setDescription(String description) {
        this.description = description == null ? "" : description;
    }

    /** Largest frame on the wire, in bytes (headers included). */
    public int mtuBytes() {
        return mtuBytes;
    }

    public void setMtuBytes(int mtuBytes) {
        this.mtuBytes = mtuBytes;
    }

    public Layout layout() {
        return layout;
    }

    public void setLayout(Layout layout) {
        this.layout = Objects.requireNonNull(layout);
    }

    // ----- graph -----------------------------------------------------------------------------

    /** The fabric as a read-only JGraphT graph, failed links included. */
    public Graph<Device, Link> graph() {
        return new AsUnmodifiableGraph<>(index().graph);
    }

    /** A live read-only view without DOWN links and without the given devices and links. */
    public Graph<Device, Link> view(Predicate<Device> deviceDown, Predicate<Link> linkDown) {
        return new MaskSubgraph<>(index().graph, deviceDown, l -> !l.isUp() || linkDown.test(l));
    }

    /** A live read-only view of the links that are up. */
    public Graph<Device, Link> upView() {
        return view(d -> false, l -> false);
    }

    // ----- devices ---------------------------------------------------------------------------

    public Collection<Device> devices() {
        return Collections.unmodifiableCollection(devices.values());
    }

    public Device device(String id) {
        return devices.get(id);
    }

    public Optional<Device> findDevice(String id) {
        return Optional.ofNullable(devices.get(id));
    }

    public List<Device> devices(DeviceRole role) {
        return devices.values().stream().filter(d -> d.role() == role).toList();
    }

    public List<Device> servers() {
        return devices(DeviceRole.SERVER);
    }

    public List<Device> switches() {
        return devices.values().stream().filter(d -> d.role().isSwitch()).toList();
    }

    /** Creates and adds a device; ids are unique. */
    public Device addDevice(String id, DeviceRole role) {
        return addDevice(new Device(id, role));
    }

    /** Adds a device built elsewhere (its ports come with it; it must have no links yet). */
    public Device addDevice(Device d) {
        if (devices.containsKey(d.id())) {
            throw new IllegalArgumentException("duplicate device id: " + d.id());
        }
        Index i = index();
        devices.put(d.id(), d);
        i.graph.addVertex(d);
        return d;
    }

    /** Removes a device and every link attached to it; returns the links removed. */
    public List<Link> removeDevice(Device d) {
        Graph<Device, Link> graph = index().graph;
        List<Link> removed = new ArrayList<>(graph.edgesOf(d));
        removed.forEach(this::removeLink);
        graph.removeVertex(d);
        devices.remove(d.id());
        layout.positions().remove(d.id());
        return removed;
    }

    // ----- ports -----------------------------------------------------------------------------

    /** Finds a port by "device:port". */
    public Port port(String ref) {
        int i = ref.lastIndexOf(':');
        if (i <= 0) {
            return null;
        }
        Device d = devices.get(ref.substring(0, i));
        return d == null ? null : d.port(ref.substring(i + 1));
    }

    /** The link on a port, or null when the port is free. */
    public Link linkAt(Port p) {
        return index().linkByPort.get(p);
    }

    public boolean isFree(Port p) {
        return !index().linkByPort.containsKey(p);
    }

    /** Free ports of a device, in port order. */
    public List<Port> freePorts(Device d) {
        return d.ports().stream().filter(this::isFree).toList();
    }

    /** Removes an unlinked port from its device. */
    public void removePort(Port p) {
        if (!isFree(p)) {
            throw new IllegalStateException("port " + p.ref() + " still carries link " + linkAt(p).id());
        }
        p.device().removePort(p.name());
    }

    // ----- links -----------------------------------------------------------------------------

    public Collection<Link> links() {
        return Collections.unmodifiableCollection(index().links.values());
    }

    public Link link(String id) {
        return index().links.get(id);
    }

    public int linkCount() {
        return index().links.size();
    }

    /** Links between two devices (parallel links included). */
    public List<Link> linksBetween(Device x, Device y) {
        return List.copyOf(index().graph.getAllEdges(x, y));
    }

    public List<Link> linksOf(Device d) {
        return List.copyOf(index().graph.edgesOf(d));
    }

    public List<Device> neighbors(Device d) {
        return Graphs.neighborListOf(index().graph, d).stream().distinct().toList();
    }

    /** Connects two free ports with the conventional id "a--b". */
    public Link connect(Port a, Port b, int speedGbps, double cableLengthM, CableType type) {
        return addLink(new Link(Link.idFor(a, b), a, b, speedGbps, cableLengthM, type));
    }

    /** Connects two free ports, choosing the cable type from the length. */
    public Link connect(Port a, Port b, int speedGbps, double cableLengthM) {
        return connect(a, b, speedGbps, cableLengthM, CableType.forLength(cableLengthM));
    }

    /** Adds a link built elsewhere (e.g. undo of a delete). Both ports must be free and belong to this fabric. */
    public Link addLink(Link l) {
        Port a = l.a();
        Port b = l.b();
        if (a.device() == b.device()) {
            throw new IllegalArgumentException("self-loop: " + a.ref() + " and " + b.ref() + " are on the same device");
        }
        for (Port p : List.of(a, b)) {
            if (devices.get(p.device().id()) != p.device() || p.device().port(p.name()) != p) {
                throw new IllegalArgumentException("port " + p.ref() + " is not in this fabric");
            }
            if (!isFree(p)) {
                throw new IllegalArgumentException("port " + p.ref() + " already carries link " + linkAt(p).id());
            }
        }
        Index i = index();
        if (i.links.containsKey(l.id())) {
            throw new IllegalArgumentException("duplicate link id: " + l.id());
        }
        i.add(l);
        return l;
    }

    public void removeLink(Link l) {
        Index i = index();
        if (i.links.remove(l.id()) != null) {
            i.graph.removeEdge(l);
            i.linkByPort.remove(l.a());
            i.linkByPort.remove(l.b());
        }
    }

    /**
     * Finds a link by id, by one of its ports ("dev:port"), or by "devA--devB" / "devA-devB" (the
     * first link between them). Returns null if none matches.
     */
    public Link findLink(String spec) {
        Link l = link(spec);
        if (l != null) {
            return l;
        }
        Port p = port(spec);
        if (p != null) {
            return linkAt(p);
        }
        for (String sep : List.of("--", "-", "~")) {
            int i = spec.indexOf(sep);
            while (i > 0) {
                Device x = devices.get(spec.substring(0, i));
                Device y = devices.get(spec.substring(i + sep.length()));
                if (x != null && y != null) {
                    List<Link> between = linksBetween(x, y);
                    return between.isEmpty() ? null : between.get(0);
                }
                i = spec.indexOf(sep, i + 1);
            }
        }
        return null;
    }

    // ----- QoS -------------------------------------------------------------------------------

    public Map<String, QosProfile> qosProfiles() {
        return Collections.unmodifiableMap(qosProfiles);
    }

    public QosProfile qosProfile(String name) {
        return qosProfiles.get(name);
    }

    /** Adds or replaces a profile. The first profile added becomes the default. */
    public void putQosProfile(QosProfile p) {
        qosProfiles.put(p.name(), p);
        if (defaultQosProfile == null) {
            defaultQosProfile = p.name();
        }
    }

    public void removeQosProfile(String name) {
        qosProfiles.remove(name);
        if (name.equals(defaultQosProfile)) {
            defaultQosProfile = qosProfiles.isEmpty() ? null : qosProfiles.keySet().iterator().next();
        }
    }

    public String defaultQosProfile() {
        return defaultQosProfile;
    }

    public void setDefaultQosProfile(String name) {
        if (name != null && !qosProfiles.containsKey(name)) {
            throw new IllegalArgumentException("no QoS profile named " + name);
        }
        this.defaultQosProfile = name;
    }

    /** The profile in force on a port: the port's own, else its device's, else the fabric default; may be null. */
    public QosProfile qosFor(Port p) {
        String n = p.qosProfile();
        if (n == null) {
            n = p.device().qosProfile();
        }
        if (n == null) {
            n = defaultQosProfile;
        }
        return n == null ? null : qosProfiles.get(n);
    }

    // ----- copy ------------------------------------------------------------------------------

    /**
     * A deep copy: new devices, ports and links with the same ids, fields and order, the same QoS
     * profiles (immutable records, shared) and a copy of the layout. Background work (analysis,
     * export, autosave) reads a copy so the editor can go on changing the original; the copy shares
     * no mutable object with it.
     *
     * <p>The editor takes it on the FX thread, which answers nothing meanwhile, so it copies only
     * what can change (docs/performance.md, "Responsiveness during long actions"): devices with
     * their ports, links and the layout, in bulk rather than through {@link #addDevice(Device)} and
     * {@link #addLink(Link)} (the original already holds every invariant those check: unique ids,
     * ports of this fabric, one link per port, no self-loop). Each copied port is found through its
     * original ({@link Port#copy}) rather than by name. What follows from them, the graph and the
     * link indexes, the copy builds on first use ({@link #index()}), on the thread that reads it.
     * Two threads may take copies of one fabric at once: they take turns.
     */
    public Fabric copy() {
        synchronized (lock) {
            Fabric c = new Fabric(name, devices.size());
            c.description = description;
            c.mtuBytes = mtuBytes;
            Collection<Link> ls = linksInOrder();
            List<Link> copiedLinks = new ArrayList<>(ls.size());
            // The originals must not keep the copy alive: each link clears its ports' field as it
            // reads it, and a last pass clears the rest (free ports, or all after a failure).
            int ports = 0;
            boolean whole = false;
            try {
                for (Device d : devices.values()) {
                    Device n = new Device(d);
                    ports += n.portCount();
                    c.devices.put(n.id(), n);
                }
                for (Link l : ls) {
                    Port a = l.a();
                    Port b = l.b();
                    Link n = new Link(l.id(), a.copy, b.copy, l.speedGbps(), l.cableLengthM(), l.cableType());
                    a.copy = null;
                    b.copy = null;
                    n.setState(l.state());
                    copiedLinks.add(n);
                }
                whole = true;
            } finally {
                if (!whole || ports != 2 * ls.size()) {
                    for (Device d : devices.values()) {
                        d.forgetCopies();
                    }
                }
            }
            c.unindexedLinks = copiedLinks;
            c.qosProfiles.putAll(qosProfiles);
            c.defaultQosProfile = defaultQosProfile;
            c.layout = layout.copy();
            return c;
        }
    }

    /** The links in order, without building the index of a copy not yet read (a copy of a copy). */
    private Collection<Link> linksInOrder() {
        synchronized (lock) {
            Index i = index;
            return i != null ? i.links.values() : unindexedLinks;
        }
    }

    // ----- counts ----------------------------------------------------------------------------

    public int gpuCount() {
        return devices.values().stream().mapToInt(Device::gpus).sum();
    }

    @Override
    public String toString() {
        return "Fabric[" + name + ", " + devices.size() + " devices, " + linkCount() + " links]";
    }
}
