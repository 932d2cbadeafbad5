package io.fabriclab.model;

import java.util.Objects;

/**
 * One physical port of a device. A port carries at most one link. On a server every port is a
 * NIC port: {@link #nic()} is the NIC (and GPU) index it belongs to.
 */
public final class Port {
    private final Device device;
    private final String name;
    private int speedGbps;
    private Integer nic;
    private String qosProfile;
    /**
     * While {@link Fabric#copy()} runs (under the fabric's lock): this port's copy, so each copied
     * link finds its copied ports without a lookup by name; null otherwise.
     */
    Port copy;

    Port(Device device, String name, int speedGbps, Integer nic) {
        this.device = Objects.requireNonNull(device);
        this.name = Objects.requireNonNull(name);
        this.speedGbps = speedGbps;
        this.nic = nic;
    }

    /** A copy of {@code p} on {@code device} (a copy of p's device), for {@link Device#Device(Device)}. */
    Port(Device device, Port p) {
        this.device = device;
        this.name = p.name;
        this.speedGbps = p.speedGbps;
        this.nic = p.nic;
        this.qosProfile = p.qosProfile;
    }

    public Device device() {
        return device;
    }

    public String name() {
        return name;
    }

    /** The port's maximum speed in Gb/s (the link may run slower). */
    public int speedGbps() {
        return speedGbps;
    }

    public void setSpeedGbps(int speedGbps) {
        this.speedGbps = speedGbps;
    }

    /** NIC index on a server (0-based; NIC k serves GPU k and belongs to rail k); null on switches. */
    public Integer nic() {
        return nic;
    }

    public void setNic(Integer nic) {
        this.nic = nic;
    }

    /** Name of a QoS profile assigned to this port alone, or null to inherit the device's. */
    public String qosProfile() {
        return qosProfile;
    }

    public void setQosProfile(String qosProfile) {
        this.qosProfile = qosProfile;
    }

    /** "device:port", the way links and the command line name a port. */
    public String ref() {
        return device.id() + ":" + name;
    }

    @Override
    public String toString() {
        return ref();
    }
}
