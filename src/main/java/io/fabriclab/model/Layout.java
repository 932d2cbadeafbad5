package io.fabriclab.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.Set;

/** Where the editor drew each device, and which groups (units, pods) are folded. Saved with the fabric. */
public final class Layout {
    public record Point(double x, double y) {
    }

    private final Map<String, Point> positions = new LinkedHashMap<>();
    private final Set<String> foldedGroups = new TreeSet<>();

    public Map<String, Point> positions() {
        return positions;
    }

    public Set<String> foldedGroups() {
        return foldedGroups;
    }

    public Point position(String deviceId) {
        return positions.get(deviceId);
    }

    public void setPosition(String deviceId, double x, double y) {
        positions.put(deviceId, new Point(x, y));
    }

    public boolean isEmpty() {
        return positions.isEmpty() && foldedGroups.isEmpty();
    }

    public Layout copy() {
        Layout l = new Layout();
        l.positions.putAll(positions);
        l.foldedGroups.addAll(foldedGroups);
        return l;
    }
}
