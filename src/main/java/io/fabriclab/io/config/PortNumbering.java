package io.fabriclab.io.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabriclab.model.Port;

/**
 * How FabricLab port names (eth1..ethN, 1-based, the names {@code Device.addPorts("eth", 1, n, ..)}
 * gives) become each vendor's interface names. Only the trailing number matters, so "swp7" or "p7"
 * are port 7 too.
 *
 * <ul>
 *   <li>SONiC names a port after its first SerDes lane: Ethernet0, Ethernet8, ... on a platform with
 *       8 lanes per port (64x400G/800G AI switches: Tomahawk 4/5, Spectrum-4), Ethernet0, Ethernet4,
 *       ... with 4 lanes (32x100G/400G). ethN is Ethernet((N-1) * lanesPerPort).</li>
 *   <li>Arista EOS names breakout-capable (100G and faster) front-panel ports EthernetN/1, slower
 *       fixed ports EthernetN.</li>
 *   <li>Cisco NX-OS on a fixed Nexus 9000: Ethernet1/N.</li>
 * </ul>
 */
public final class PortNumbering {
    private static final Pattern TRAILING_NUMBER = Pattern.compile("^\\D*?(\\d+)$");

    private PortNumbering() {
    }

    /** The 1-based front-panel number of a port, from the digits its name ends with. */
    public static int number(Port p) {
        Matcher m = TRAILING_NUMBER.matcher(p.name());
        if (!m.matches()) {
            throw new UnexportableQosException("port " + p.ref() + ": its name must end with the front-panel "
                    + "number (eth1, eth2, ...) to map it to vendor interface names");
        }
        int n;
        try {
            n = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            throw new UnexportableQosException("port " + p.ref() + ": port number too large");
        }
        if (n < 1) {
            throw new UnexportableQosException("port " + p.ref() + ": front-panel numbers start at 1 (eth1)");
        }
        return n;
    }

    /** SONiC interface name: ethN is Ethernet((N-1) * lanesPerPort). */
    public static String sonic(Port p, int lanesPerPort) {
        return "Ethernet" + (long) (number(p) - 1) * lanesPerPort;
    }

    /** Arista EOS interface name: EthernetN/1 for ports of 100G and faster, EthernetN below. */
    public static String eos(Port p) {
        return p.speedGbps() >= 100 ? "Ethernet" + number(p) + "/1" : "Ethernet" + number(p);
    }

    /** Cisco NX-OS interface name on a fixed switch: Ethernet1/N. */
    public static String nxos(Port p) {
        return "Ethernet1/" + number(p);
    }
}
