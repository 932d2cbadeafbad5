package io.fabriclab.io.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The switch operating systems FabricLab writes QoS configuration for, and the file each one gets. */
public enum Vendor {
    /** SONiC: a config_db.json fragment (tables PORT, PORT_QOS_MAP, BUFFER_*, WRED_PROFILE, QUEUE, ...). */
    SONIC("sonic", ".config_db.json"),
    /** Arista EOS: CLI configuration text. */
    EOS("eos", ".eos.cfg"),
    /** Cisco NX-OS (Nexus 9000): CLI configuration text. */
    NXOS("nxos", ".nxos.cfg");

    private final String cliName;
    private final String fileSuffix;

    Vendor(String cliName, String fileSuffix) {
        this.cliName = cliName;
        this.fileSuffix = fileSuffix;
    }

    /** The name used on the command line: sonic, eos, nxos. */
    public String cliName() {
        return cliName;
    }

    /** What follows the switch name in the exported file name, e.g. ".config_db.json". */
    public String fileSuffix() {
        return fileSuffix;
    }

    public static Optional<Vendor> fromName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.toLowerCase(Locale.ROOT).replace("-", "");
        return Arrays.stream(values()).filter(v -> v.cliName.equals(n)).findFirst();
    }

    public static String allowedNames() {
        return String.join(", ", Arrays.stream(values()).map(Vendor::cliName).toList());
    }

    @Override
    public String toString() {
        return cliName;
    }
}
