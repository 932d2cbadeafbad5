package io.fabriclab.model;

import java.util.Objects;

/**
 * A full-duplex cable between two ports. Each direction has its own egress queues at the sender;
 * {@link #a()} to {@link #b()} is the "forward" direction, b to a the "reverse" one. Equality is
 * identity, so parallel links between the same two devices are distinct graph edges.
 */
public final class Link {
    private final String id;
    private final Port a;
    private final Port b;
    private int speedGbps;
    private double cableLengthM;
    private CableType cableType;
    private LinkState state = LinkState.UP;

    public Link(String id, Port a, Port b, int speedGbps, double cableLengthM, CableType cableType) {
        this.id = Objects.requireNonNull(id);
        this.a = Objects.requireNonNull(a);
        this.b = Objects.requireNonNull(b);
        this.speedGbps = speedGbps;
        this.cableLengthM = cableLengthM;
        this.cableType = Objects.requireNonNull(cableType);
    }

    /** The conventional id of a link between two ports: "devA:portA--devB:portB". */
    public static String idFor(Port a, Port b) {
        return a.ref() + "--" + b.ref();
    }

    public String id() {
        return id;
    }

    public Port a() {
        return a;
    }

    public Port b() {
        return b;
    }

    /** The port at the other end from {@code p}. */
    public Port opposite(Port p) {
        if (p == a) {
            return b;
        }
        if (p == b) {
            return a;
        }
        throw new IllegalArgumentException(p + " is not an end of " + id);
    }

    /** The port of this link on {@code d}. */
    public Port portOn(Device d) {
        if (a.device() == d) {
            return a;
        }
        if (b.device() == d) {
            return b;
        }
        throw new IllegalArgumentException(d + " is not an end of " + id);
    }

    public Device other(Device d) {
        return portOn(d) == a ? b.device() : a.device();
    }

    public int speedGbps() {
        return speedGbps;
    }

    public long rateBps() {
        return Units.gbpsToBps(speedGbps);
    }

    public void setSpeedGbps(int speedGbps) {
        this.speedGbps = speedGbps;
    }

    public double cableLengthM() {
        return cableLengthM;
    }

    public void setCableLengthM(double cableLengthM) {
        this.cableLengthM = cableLengthM;
    }

    public long propagationPs() {
        return Units.propagationPs(cableLengthM);
    }

    public CableType cableType() {
        return cableType;
    }

    public void setCableType(CableType cableType) {
        this.cableType = Objects.requireNonNull(cableType);
    }

    public LinkState state() {
        return state;
    }

    public void setState(LinkState state) {
        this.state = Objects.requireNonNull(state);
    }

    public boolean isUp() {
        return state == LinkState.UP;
    }

    @Override
    public String toString() {
        return id;
    }
}
