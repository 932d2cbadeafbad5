package io.fabriclab.diagram;

import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.Device;

/**
 * Servers drawn as one box at low zoom: a scalable unit (servers with a unit number) or a rack
 * (servers under the same first switch); at the lowest zoom a unit's leaf and rail switches too. Members are in fabric order; bounds in world units.
 */
public final class FoldGroup {
    private final String key;
    private final List<Device> members = new ArrayList<>();
    private Bounds bounds;
    private int gpus;
    private int servers;
    private int switches;

    FoldGroup(String key) {
        this.key = key;
    }

    void add(Device d, Bounds box) {
        members.add(d);
        gpus += d.gpus();
        if (d.role().isSwitch()) {
            switches++;
        } else {
            servers++;
        }
        bounds = bounds == null ? box : bounds.union(box);
    }

    /** Bounds again from the members' boxes in {@code g}, in member order as {@link #add} made them (some moved). */
    void refit(DiagramGeometry g) {
        Bounds b = null;
        for (Device d : members) {
            Bounds box = g.box(d);
            b = b == null ? box : b.union(box);
        }
        bounds = b;
    }

    /** "unit 3" or "rack leaf1": also the name stored in {@code Layout.foldedGroups()}. */
    public String key() {
        return key;
    }

    public List<Device> members() {
        return members;
    }

    public Bounds bounds() {
        return bounds;
    }

    public int gpus() {
        return gpus;
    }

    public int serverCount() {
        return servers;
    }

    /** Leaf / rail switches folded in with their unit at the lowest zoom. */
    public int switchCount() {
        return switches;
    }
}
