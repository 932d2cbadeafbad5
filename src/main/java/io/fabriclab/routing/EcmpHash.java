package io.fabriclab.routing;

/**
 * The ECMP hash of a switch over a flow's 5-tuple (source and destination address, UDP source and
 * destination port, protocol). RoCEv2 flows differ only in addresses and the UDP source port the
 * NIC picks per queue pair, so few large flows give the hash little entropy: collisions are real.
 *
 * <p>With {@code perSwitchSeed} false every switch computes the same function, which polarizes
 * (a switch's choice correlates with the previous switch's); with it true, each switch mixes its
 * own id into the seed, as vendors recommend.
 */
public final class EcmpHash {
    public static final int ROCEV2_UDP_PORT = 4791;
    public static final int PROTO_UDP = 17;

    private final long seed;
    private final boolean perSwitchSeed;

    public EcmpHash(long seed, boolean perSwitchSeed) {
        this.seed = seed;
        this.perSwitchSeed = perSwitchSeed;
    }

    public long seed() {
        return seed;
    }

    public boolean perSwitchSeed() {
        return perSwitchSeed;
    }

    /** The 64-bit hash of a 5-tuple at a switch. */
    public long hash(int switchId, int srcAddr, int dstAddr, int srcPort, int dstPort, int proto) {
        long h = seed ^ 0x9E3779B97F4A7C15L;
        if (perSwitchSeed) {
            h = mix(h ^ (switchId * 0xC2B2AE3D27D4EB4FL));
        }
        h = mix(h ^ (srcAddr & 0xFFFFFFFFL));
        h = mix(h ^ (dstAddr & 0xFFFFFFFFL));
        h = mix(h ^ (((long) srcPort << 16) | (dstPort & 0xFFFF)));
        h = mix(h ^ proto);
        return h;
    }

    /** The member (0..n-1) of an ECMP group of {@code n} next hops a 5-tuple takes at a switch. */
    public int select(int switchId, int srcAddr, int dstAddr, int srcPort, int dstPort, int proto, int n) {
        if (n <= 1) {
            return 0;
        }
        long h = hash(switchId, srcAddr, dstAddr, srcPort, dstPort, proto);
        return (int) Long.remainderUnsigned(h, n);
    }

    /** A RoCEv2 flow's member: UDP to 4791 from the QP's source port. */
    public int selectRoce(int switchId, int srcAddr, int dstAddr, int udpSrcPort, int n) {
        return select(switchId, srcAddr, dstAddr, udpSrcPort, ROCEV2_UDP_PORT, PROTO_UDP, n);
    }

    /** splitmix64's finaliser: a full-avalanche mix of 64 bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
