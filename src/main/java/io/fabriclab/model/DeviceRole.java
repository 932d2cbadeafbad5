package io.fabriclab.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a device is in the fabric; {@link #tier()} orders them bottom (servers) to top (core). */
public enum DeviceRole {
    /** A GPU server; each of its ports is one NIC (NIC k serves GPU k). */
    SERVER("server", 0),
    /** Leaf / top-of-rack switch; in a rail-optimized unit, the rail-k leaf. */
    LEAF("leaf", 1),
    /** A rail switch of a rail-only fabric (no spine layer above it). */
    RAIL("rail", 1),
    /** Spine switch joining leaves (and rails / scalable units). */
    SPINE("spine", 2),
    /** Super-spine / core switch joining spine groups or pods. */
    CORE("core", 3);

    private final String jsonName;
    private final int tier;

    DeviceRole(String jsonName, int tier) {
        this.jsonName = jsonName;
        this.tier = tier;
    }

    /** The name used in files and on the command line: server, leaf, rail, spine, core. */
    public String jsonName() {
        return jsonName;
    }

    /** 0 for servers, 1 for leaf and rail switches, 2 for spines, 3 for core. */
    public int tier() {
        return tier;
    }

    public boolean isSwitch() {
        return this != SERVER;
    }

    public static Optional<DeviceRole> fromJsonName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(r -> r.jsonName.equals(n)).findFirst();
    }

    /** The allowed names, for error messages. */
    public static String allowedNames() {
        return String.join(", ", Arrays.stream(values()).map(DeviceRole::jsonName).toList());
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
