package io.fabriclab.topology;

import io.fabriclab.model.FabricLimits;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Units;

/**
 * A two-tier leaf-spine (Clos) fabric: every leaf connects to every spine with the same number of
 * parallel uplinks; each server hangs off one leaf with all its NICs.
 *
 * @param leaves                  number of leaf switches
 * @param spines                  number of spine switches
 * @param serversPerLeaf          GPU servers under each leaf
 * @param nicsPerServer           NICs per server (each one port, one link to the server's leaf)
 * @param nicSpeedGbps            server NIC speed, Gb/s
 * @param uplinksPerLeafSpinePair parallel links between each leaf and each spine
 * @param uplinkSpeedGbps         leaf-spine link speed, Gb/s
 * @param serverCableM            server-leaf cable length, metres
 * @param leafSpineCableM         leaf-spine cable length, metres
 * @param switchRadix             ports per switch; null builds each switch with exactly the ports it
 *                                uses, otherwise leaves are padded with free server-speed ports and
 *                                spines with free uplink-speed ports up to the radix
 * @param scaleUp                 every server's scale-up domain (its GPUs' NVLink / NVSwitch), H100 by default
 */
public record LeafSpineParams(int leaves, int spines, int serversPerLeaf, int nicsPerServer, int nicSpeedGbps,
                              int uplinksPerLeafSpinePair, int uplinkSpeedGbps, double serverCableM,
                              double leafSpineCableM, Integer switchRadix, ScaleUp scaleUp) {

    public LeafSpineParams {
        requirePositive("leaves", leaves);
        requirePositive("spines", spines);
        requirePositive("serversPerLeaf", serversPerLeaf);
        requirePositive("nicsPerServer", nicsPerServer);
        requirePositive("uplinksPerLeafSpinePair", uplinksPerLeafSpinePair);
        requireSpeed("nicSpeedGbps", nicSpeedGbps);
        requireSpeed("uplinkSpeedGbps", uplinkSpeedGbps);
        requireLength("serverCableM", serverCableM);
        requireLength("leafSpineCableM", leafSpineCableM);
        if (switchRadix != null) {
            requirePositive("switchRadix", switchRadix);
        }
        java.util.Objects.requireNonNull(scaleUp, "scaleUp");
        // What the fabric reader accepts (FabricLimits), checked before anything is built.
        long servers = (long) leaves * serversPerLeaf;
        FabricLimits.checkSize((long) leaves + spines + servers,
                servers * nicsPerServer + (long) leaves * spines * uplinksPerLeafSpinePair,
                Math.max(Math.max(leafPortsUsed(serversPerLeaf, nicsPerServer, spines, uplinksPerLeafSpinePair),
                        (long) leaves * uplinksPerLeafSpinePair), Math.max(nicsPerServer, switchRadix == null ? 0 : switchRadix)));
        if (switchRadix != null) {
            if (leafPortsUsed(serversPerLeaf, nicsPerServer, spines, uplinksPerLeafSpinePair) > switchRadix) {
                throw new IllegalArgumentException("a leaf needs " + serversPerLeaf * nicsPerServer + " server ports + "
                        + spines * uplinksPerLeafSpinePair + " uplinks, more than the switch radix " + switchRadix);
            }
            if ((long) leaves * uplinksPerLeafSpinePair > switchRadix) {
                throw new IllegalArgumentException("a spine needs " + leaves * uplinksPerLeafSpinePair
                        + " leaf ports, more than the switch radix " + switchRadix);
            }
        }
    }

    /** The same with H100 servers ({@link ScaleUp#DEFAULT}). */
    public LeafSpineParams(int leaves, int spines, int serversPerLeaf, int nicsPerServer, int nicSpeedGbps,
                           int uplinksPerLeafSpinePair, int uplinkSpeedGbps, double serverCableM, double leafSpineCableM,
                           Integer switchRadix) {
        this(leaves, spines, serversPerLeaf, nicsPerServer, nicSpeedGbps, uplinksPerLeafSpinePair, uplinkSpeedGbps,
                serverCableM, leafSpineCableM, switchRadix, ScaleUp.DEFAULT);
    }

    /**
     * The classic lab example of the field: 4 leaves, 2 spines, 32 GPU servers (8 per leaf), one
     * 100G NIC per server, one 400G uplink per leaf-spine pair, 3 m DAC to the servers and 30 m
     * optics between leaves and spines; switches built with exactly the ports they use.
     */
    public static LeafSpineParams classic() {
        return new LeafSpineParams(4, 2, 8, 1, 100, 1, 400, 3.0, 30.0, null);
    }

    public int serverCount() {
        return leaves * serversPerLeaf;
    }

    public int leafDownPorts() {
        return serversPerLeaf * nicsPerServer;
    }

    public int leafUpPorts() {
        return spines * uplinksPerLeafSpinePair;
    }

    public int spinePortsUsed() {
        return leaves * uplinksPerLeafSpinePair;
    }

    public LeafSpineParams withLeaves(int n) {
        return new LeafSpineParams(n, spines, serversPerLeaf, nicsPerServer, nicSpeedGbps, uplinksPerLeafSpinePair,
                uplinkSpeedGbps, serverCableM, leafSpineCableM, switchRadix, scaleUp);
    }

    public LeafSpineParams withSwitchRadix(Integer radix) {
        return new LeafSpineParams(leaves, spines, serversPerLeaf, nicsPerServer, nicSpeedGbps, uplinksPerLeafSpinePair,
                uplinkSpeedGbps, serverCableM, leafSpineCableM, radix, scaleUp);
    }

    /** The same fabric with servers of another GPU generation (or custom scale-up figures). */
    public LeafSpineParams withScaleUp(ScaleUp s) {
        return new LeafSpineParams(leaves, spines, serversPerLeaf, nicsPerServer, nicSpeedGbps, uplinksPerLeafSpinePair,
                uplinkSpeedGbps, serverCableM, leafSpineCableM, switchRadix, s);
    }

    private static long leafPortsUsed(int serversPerLeaf, int nicsPerServer, int spines, int perPair) {
        return (long) serversPerLeaf * nicsPerServer + (long) spines * perPair;
    }

    static void requirePositive(String name, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + v);
        }
    }

    static void requireSpeed(String name, int gbps) {
        if (!Units.isAllowedSpeed(gbps)) {
            throw new IllegalArgumentException(name + " " + gbps + " is not a link speed; allowed: " + Units.allowedSpeeds());
        }
    }

    static void requireLength(String name, double m) {
        FabricLimits.checkCableLength(name, m);
    }
}
