package io.fabriclab.topology;

import io.fabriclab.model.FabricLimits;
import io.fabriclab.model.ScaleUp;

import static io.fabriclab.topology.LeafSpineParams.requireLength;
import static io.fabriclab.topology.LeafSpineParams.requirePositive;
import static io.fabriclab.topology.LeafSpineParams.requireSpeed;

/**
 * A rail-optimized GPU fabric built from scalable units (SUs), the way NVIDIA DGX SuperPOD and
 * Spectrum-X reference architectures grow: an SU of {@code serversPerUnit} servers with
 * {@code gpusPerServer} GPUs and one NIC per GPU; NIC k of every server of a unit goes to the
 * unit's rail-k leaf. Leaves join spines; when two tiers of {@code radix}-port switches cannot
 * reach every leaf, spines form spine-leaf groups and a core tier joins the groups. See
 * docs/generators.md for the counts.
 *
 * @param units              number of scalable units
 * @param serversPerUnit     servers per unit (one leaf port each per rail)
 * @param gpusPerServer      GPUs, NICs and rails per server
 * @param radix              ports per switch, every tier
 * @param speedGbps          speed of every link
 * @param serverCableM       server-leaf cable length, metres (leaves sit in the unit's network rack)
 * @param leafSpineCableM    leaf-spine cable length, metres
 * @param spineCoreCableM    spine-core cable length, metres
 * @param leafUplinks        uplinks per leaf; {@code serversPerUnit} is non-blocking (1:1)
 * @param unitsPerSpineGroup units whose leaves share one spine group in a three-tier fabric
 * @param scaleUp            every server's scale-up domain (its GPUs' NVLink / NVSwitch), H100 by default
 */
public record RailParams(int units, int serversPerUnit, int gpusPerServer, int radix, int speedGbps,
                         double serverCableM, double leafSpineCableM, double spineCoreCableM, int leafUplinks,
                         int unitsPerSpineGroup, ScaleUp scaleUp) {

    public static final int DEFAULT_SERVERS_PER_UNIT = 32;
    public static final int DEFAULT_GPUS_PER_SERVER = 8;
    public static final int DEFAULT_RADIX = 64;
    public static final int DEFAULT_SPEED_GBPS = 400;
    /** Servers to the leaf rack of their unit: multimode optics within a row. */
    public static final double DEFAULT_SERVER_CABLE_M = 20;
    public static final double DEFAULT_LEAF_SPINE_CABLE_M = 50;
    /** Spine to core crosses the hall: single-mode. */
    public static final double DEFAULT_SPINE_CORE_CABLE_M = 150;

    public RailParams {
        requirePositive("units", units);
        requirePositive("serversPerUnit", serversPerUnit);
        requirePositive("gpusPerServer", gpusPerServer);
        requirePositive("radix", radix);
        requirePositive("leafUplinks", leafUplinks);
        requirePositive("unitsPerSpineGroup", unitsPerSpineGroup);
        requireSpeed("speedGbps", speedGbps);
        requireLength("serverCableM", serverCableM);
        requireLength("leafSpineCableM", leafSpineCableM);
        requireLength("spineCoreCableM", spineCoreCableM);
        java.util.Objects.requireNonNull(scaleUp, "scaleUp");
        // What the fabric reader accepts (FabricLimits), checked before anything is built: servers and
        // rail leaves (spines and cores come on top, each at most radix ports).
        long servers = (long) units * serversPerUnit;
        long leaves = (long) units * gpusPerServer;
        FabricLimits.checkSize(servers + leaves, servers * gpusPerServer + leaves * leafUplinks,
                Math.max(radix, gpusPerServer));
        if ((long) serversPerUnit + leafUplinks > radix) {
            throw new IllegalArgumentException("a rail leaf needs " + serversPerUnit + " server ports + " + leafUplinks
                    + " uplinks, more than the radix " + radix);
        }
    }

    /** The same with H100 servers ({@link ScaleUp#DEFAULT}). */
    public RailParams(int units, int serversPerUnit, int gpusPerServer, int radix, int speedGbps, double serverCableM,
                      double leafSpineCableM, double spineCoreCableM, int leafUplinks, int unitsPerSpineGroup) {
        this(units, serversPerUnit, gpusPerServer, radix, speedGbps, serverCableM, leafSpineCableM, spineCoreCableM,
                leafUplinks, unitsPerSpineGroup, ScaleUp.DEFAULT);
    }

    /** {@code units} SUs of 32 servers x 8 GPUs, 64-port 400G switches, non-blocking. */
    public static RailParams of(int units) {
        return new RailParams(units, DEFAULT_SERVERS_PER_UNIT, DEFAULT_GPUS_PER_SERVER, DEFAULT_RADIX,
                DEFAULT_SPEED_GBPS, DEFAULT_SERVER_CABLE_M, DEFAULT_LEAF_SPINE_CABLE_M, DEFAULT_SPINE_CORE_CABLE_M,
                DEFAULT_SERVERS_PER_UNIT, 1);
    }

    public RailParams withUnits(int n) {
        return new RailParams(n, serversPerUnit, gpusPerServer, radix, speedGbps, serverCableM, leafSpineCableM,
                spineCoreCableM, leafUplinks, unitsPerSpineGroup, scaleUp);
    }

    public RailParams withLeafUplinks(int n) {
        return new RailParams(units, serversPerUnit, gpusPerServer, radix, speedGbps, serverCableM, leafSpineCableM,
                spineCoreCableM, n, unitsPerSpineGroup, scaleUp);
    }

    public RailParams withUnitsPerSpineGroup(int n) {
        return new RailParams(units, serversPerUnit, gpusPerServer, radix, speedGbps, serverCableM, leafSpineCableM,
                spineCoreCableM, leafUplinks, n, scaleUp);
    }

    /** The same fabric with servers of another GPU generation (or custom scale-up figures). */
    public RailParams withScaleUp(ScaleUp s) {
        return new RailParams(units, serversPerUnit, gpusPerServer, radix, speedGbps, serverCableM, leafSpineCableM,
                spineCoreCableM, leafUplinks, unitsPerSpineGroup, s);
    }

    public int servers() {
        return units * serversPerUnit;
    }

    public int gpus() {
        return servers() * gpusPerServer;
    }

    public int leaves() {
        return units * gpusPerServer;
    }
}
