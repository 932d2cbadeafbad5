package io.fabriclab.topology;

/**
 * The switch and cable counts of a rail-optimized fabric, derived from {@link RailParams} before
 * anything is built (so a caller can size a design without generating it).
 *
 * <p>Two tiers reach every leaf while leaves &lt;= radix (a spine has one port per leaf at least).
 * Spine count: the smallest divisor of the leaf uplinks that gives enough spine ports, so every
 * leaf has the same number of links to every spine (NVIDIA rounds 3 SUs up to 16 spines the same
 * way). Beyond, each spine group (leaves of {@code unitsPerSpineGroup} units) gets spines with half
 * their ports down and half up; spine j of every group goes to core group j, and a core group has
 * the smallest divisor of the spine uplinks that gives enough core ports.
 *
 * @param threeTier            whether a core tier is needed
 * @param leaves               leaf switches (units x rails)
 * @param spines               spine switches in total
 * @param spinesPerGroup       spines of one spine group (all spines when two-tier)
 * @param cores                core switches (0 when two-tier)
 * @param coresPerGroup        cores of one core group (0 when two-tier)
 * @param spineGroups          number of spine groups (1 when two-tier)
 * @param leafSpinePerPair     parallel links between a leaf and each spine of its group
 * @param spineCorePerPair     parallel links between a spine and each core of its core group
 * @param serverLeafCables     server-leaf links
 * @param leafSpineCables      leaf-spine links
 * @param spineCoreCables      spine-core links
 */
public record RailPlan(boolean threeTier, int leaves, int spines, int spinesPerGroup, int cores, int coresPerGroup,
                       int spineGroups, int leafSpinePerPair, int spineCorePerPair, long serverLeafCables,
                       long leafSpineCables, long spineCoreCables) {

    public static RailPlan of(RailParams p) {
        int leaves = p.leaves();
        int up = p.leafUplinks();
        int r = p.radix();
        long serverLeaf = (long) p.servers() * p.gpusPerServer();
        long leafSpine = (long) leaves * up;
        if (leaves <= r) {
            int s = smallestDivisorAtLeast(up, ceilDiv(leafSpine, r));
            return new RailPlan(false, leaves, s, s, 0, 0, 1, up / s, 0, serverLeaf, leafSpine, 0);
        }
        if (p.units() % p.unitsPerSpineGroup() != 0) {
            throw new IllegalArgumentException(p.units() + " units do not divide into spine groups of "
                    + p.unitsPerSpineGroup() + " units");
        }
        int spineDown = r / 2;
        int groupLeaves = p.unitsPerSpineGroup() * p.gpusPerServer();
        if (groupLeaves > spineDown) {
            throw new IllegalArgumentException("a spine group of " + groupLeaves + " leaves exceeds the " + spineDown
                    + " down ports of a " + r + "-port spine; use fewer units per spine group");
        }
        int sg = smallestDivisorAtLeast(up, ceilDiv((long) groupLeaves * up, spineDown));
        int down = groupLeaves * up / sg;
        int groups = p.units() / p.unitsPerSpineGroup();
        if (groups > r) {
            throw new IllegalArgumentException(groups + " spine groups exceed what a " + r
                    + "-port core can join (" + r + "); a fourth tier or larger spine groups are needed");
        }
        int cg = smallestDivisorAtLeast(down, ceilDiv((long) groups * down, r));
        int spines = groups * sg;
        return new RailPlan(true, leaves, spines, sg, sg * cg, cg, groups, up / sg, down / cg, serverLeaf, leafSpine,
                (long) spines * down);
    }

    public int switches() {
        return leaves + spines + cores;
    }

    /** The smallest divisor of {@code n} that is at least {@code min} (n itself at worst). */
    static int smallestDivisorAtLeast(int n, long min) {
        for (int d = (int) Math.max(1, min); d < n; d++) {
            if (n % d == 0) {
                return d;
            }
        }
        return n;
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
