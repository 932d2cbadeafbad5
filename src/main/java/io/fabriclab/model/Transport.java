package io.fabriclab.model;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The transport a run simulates on the same drawing: the link layer, framing, switch behaviour,
 * routing and NIC transport change together. {@link #ROCEV2} is the default and today's model
 * (lossless Ethernet with PFC, ECN and DCQCN). {@link #INFINIBAND} is credit-based link-level flow
 * control per virtual lane (IBTA Architecture Specification vol. 1). {@link #ULTRA_ETHERNET} is UEC
 * 1.0: per-packet spraying, trimming, selective retransmission, sender-based congestion control.
 */
public enum Transport {
    ROCEV2("rocev2", "RoCEv2"),
    INFINIBAND("infiniband", "InfiniBand"),
    ULTRA_ETHERNET("ultra-ethernet", "Ultra Ethernet");

    private final String jsonName;
    private final String displayName;

    Transport(String jsonName, String displayName) {
        this.jsonName = jsonName;
        this.displayName = displayName;
    }

    /** The spelling used in files and on the command line. */
    public String jsonName() {
        return jsonName;
    }

    /** The name shown to people (tables, reports, the app). */
    public String displayName() {
        return displayName;
    }

    /** Exact match on the file spelling (files are case-sensitive like every other enum field). */
    public static Optional<Transport> fromJsonName(String name) {
        return Arrays.stream(values()).filter(t -> t.jsonName.equals(name)).findFirst();
    }

    /** "rocev2, infiniband, ultra-ethernet", for error messages. */
    public static String allowedNames() {
        return Arrays.stream(values()).map(Transport::jsonName).collect(Collectors.joining(", "));
    }
}
