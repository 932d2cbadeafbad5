package io.fabriclab.topology;

import io.fabriclab.model.FabricLimits;
import io.fabriclab.model.ScaleUp;

import static io.fabriclab.topology.LeafSpineParams.requireLength;
import static io.fabriclab.topology.LeafSpineParams.requireSpeed;

/**
 * A three-tier k-ary fat tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge and k/2
 * aggregation switches, (k/2)^2 core switches, k^3/4 hosts with one NIC each; every switch has k
 * ports of the same speed.
 *
 * @param k               switch radix, even, at least 2
 * @param speedGbps       speed of every link
 * @param hostCableM      host-edge cable length, metres
 * @param edgeAggCableM   edge-aggregation cable length, metres
 * @param aggCoreCableM   aggregation-core cable length, metres
 * @param sparePorts      free ports added to every switch beyond the k the tree uses (room to grow:
 *                        a switch of the tree is then a (k + sparePorts)-port model), 0 or more
 * @param scaleUp         every host's scale-up domain (its GPUs' NVLink / NVSwitch), H100 by default
 */
public record FatTreeParams(int k, int speedGbps, double hostCableM, double edgeAggCableM, double aggCoreCableM,
                            int sparePorts, ScaleUp scaleUp) {

    public FatTreeParams {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("k must be an even number >= 2, was " + k);
        }
        if (sparePorts < 0) {
            throw new IllegalArgumentException("sparePorts must be 0 or more, was " + sparePorts);
        }
        // What the fabric reader accepts (FabricLimits), checked before anything is built:
        // k^3/4 hosts + 5k^2/4 switches, 3 k^3/4 links (host-edge, edge-agg, agg-core), k + spare ports per switch.
        long kk = k;
        FabricLimits.checkSize(kk * kk * kk / 4 + 5 * kk * kk / 4, 3 * kk * kk * kk / 4, kk + sparePorts);
        requireSpeed("speedGbps", speedGbps);
        requireLength("hostCableM", hostCableM);
        requireLength("edgeAggCableM", edgeAggCableM);
        requireLength("aggCoreCableM", aggCoreCableM);
        java.util.Objects.requireNonNull(scaleUp, "scaleUp");
    }

    /** The same with H100 hosts ({@link ScaleUp#DEFAULT}). */
    public FatTreeParams(int k, int speedGbps, double hostCableM, double edgeAggCableM, double aggCoreCableM,
                         int sparePorts) {
        this(k, speedGbps, hostCableM, edgeAggCableM, aggCoreCableM, sparePorts, ScaleUp.DEFAULT);
    }

    /** Every switch with exactly the k ports the tree uses. */
    public FatTreeParams(int k, int speedGbps, double hostCableM, double edgeAggCableM, double aggCoreCableM) {
        this(k, speedGbps, hostCableM, edgeAggCableM, aggCoreCableM, 0);
    }

    /** k-ary fat tree at 400G with 3 m DAC to hosts, 30 m edge-aggregation, 150 m to the core. */
    public static FatTreeParams of(int k) {
        return new FatTreeParams(k, 400, 3, 30, 150);
    }

    public FatTreeParams withSparePorts(int spare) {
        return new FatTreeParams(k, speedGbps, hostCableM, edgeAggCableM, aggCoreCableM, spare, scaleUp);
    }

    /** The same fabric with hosts of another GPU generation (or custom scale-up figures). */
    public FatTreeParams withScaleUp(ScaleUp s) {
        return new FatTreeParams(k, speedGbps, hostCableM, edgeAggCableM, aggCoreCableM, sparePorts, s);
    }

    /** Ports of every switch: the k in use plus the spare ones. */
    public int switchPorts() {
        return k + sparePorts;
    }

    public int hosts() {
        return k * k * k / 4;
    }

    public int switches() {
        return k * k + k * k / 4;
    }
}
