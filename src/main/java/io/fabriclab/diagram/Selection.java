package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;

/** The devices and links the user has selected, in selection order; listeners hear every change. */
public final class Selection {
    private final Set<Device> devices = new LinkedHashSet<>();
    private final Set<Link> links = new LinkedHashSet<>();
    private final List<Runnable> listeners = new ArrayList<>();

    public Set<Device> devices() {
        return Collections.unmodifiableSet(devices);
    }

    public Set<Link> links() {
        return Collections.unmodifiableSet(links);
    }

    public boolean isEmpty() {
        return devices.isEmpty() && links.isEmpty();
    }

    public int size() {
        return devices.size() + links.size();
    }

    public boolean contains(Device d) {
        return devices.contains(d);
    }

    public boolean contains(Link l) {
        return links.contains(l);
    }

    public void clear() {
        if (!isEmpty()) {
            devices.clear();
            links.clear();
            fire();
        }
    }

    /** Replaces the selection. */
    public void set(Collection<Device> ds, Collection<Link> ls) {
        devices.clear();
        links.clear();
        devices.addAll(ds);
        links.addAll(ls);
        fire();
    }

    public void add(Collection<Device> ds, Collection<Link> ls) {
        boolean changed = devices.addAll(ds) | links.addAll(ls);
        if (changed) {
            fire();
        }
    }

    /** Adds the device if absent, removes it if present (shift-click). */
    public void toggle(Device d) {
        if (!devices.remove(d)) {
            devices.add(d);
        }
        fire();
    }

    public void toggle(Link l) {
        if (!links.remove(l)) {
            links.add(l);
        }
        fire();
    }

    /** Drops what no longer exists in the fabric (after a delete or an undo). */
    public void retainExisting(Fabric fabric) {
        boolean changed = devices.removeIf(d -> fabric.device(d.id()) != d)
                | links.removeIf(l -> fabric.link(l.id()) != l);
        if (changed) {
            fire();
        }
    }

    public void addListener(Runnable r) {
        listeners.add(r);
    }

    private void fire() {
        listeners.forEach(Runnable::run);
    }
}
