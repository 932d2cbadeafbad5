package io.fabriclab.topology;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

/**
 * Builds a rail-optimized fabric of scalable units (see {@link RailParams}, {@link RailPlan} and
 * docs/generators.md). Names, with numbers zero-padded to the largest one:
 * <ul>
 * <li>servers {@code su01-srv01}; ports nic0..nic7 (NIC k = GPU k = rail k)</li>
 * <li>rail leaves {@code su01-leaf0}..{@code su01-leaf7}: leaf k serves rail k; ports eth1..eth32
 *     go to servers 1..32 in order, the uplinks follow</li>
 * <li>two tiers: spines {@code spine01}..; three tiers: group spines {@code su01-spine1}.. (or
 *     {@code sg01-spine1}.. when a group spans several units) and cores {@code cg1-core01}..
 *     (core group j serves spine j of every group)</li>
 * </ul>
 * Attributes: servers and leaves carry {@code unit}; leaves carry {@code rail}; everything below the
 * core carries {@code pod} = spine group (0 in a two-tier fabric); cores carry label coreGroup.
 */
public final class RailOptimizedGenerator {
    private RailOptimizedGenerator() {
    }

    /** {@code units} scalable units with the defaults of {@link RailParams#of}. */
    public static Fabric generate(int units) {
        return generate(RailParams.of(units));
    }

    public static Fabric generate(RailParams p) {
        RailPlan plan = RailPlan.of(p);
        Fabric f = new Fabric("rail-optimized " + p.units() + " SU");
        f.setDescription(p.units() + " scalable units x " + p.serversPerUnit() + " servers x " + p.gpusPerServer()
                + " GPUs = " + p.gpus() + " GPUs; " + (plan.threeTier() ? "three" : "two") + " tiers of " + p.radix()
                + "x" + p.speedGbps() + "G switches");
        f.putQosProfile(QosProfile.roceLossless(LeafSpineGenerator.QOS_PROFILE, p.speedGbps()));
        Cabling c = new Cabling(f);
        int g = p.gpusPerServer();
        int r = p.radix();
        int speed = p.speedGbps();

        Device[][] leaves = new Device[p.units()][g];
        for (int u = 0; u < p.units(); u++) {
            String su = "su" + Cabling.pad(u + 1, p.units());
            int pod = plan.threeTier() ? u / p.unitsPerSpineGroup() : 0;
            for (int k = 0; k < g; k++) {
                Device leaf = c.addSwitch(su + "-leaf" + k, DeviceRole.LEAF, r, speed);
                leaf.setModel(SwitchSku.of(leaf));
                leaf.setUnit(u);
                leaf.setRail(k);
                leaf.setPod(pod);
                leaves[u][k] = leaf;
            }
            for (int s = 0; s < p.serversPerUnit(); s++) {
                Device srv = c.addServer(su + "-srv" + Cabling.pad(s + 1, p.serversPerUnit()), g, speed);
                srv.setUnit(u);
                srv.setPod(pod);
                srv.setScaleUp(p.scaleUp());
                for (int k = 0; k < g; k++) {
                    c.nicToSwitch(srv, k, leaves[u][k], speed, p.serverCableM());
                }
            }
        }

        if (!plan.threeTier()) {
            Device[] spines = new Device[plan.spines()];
            for (int s = 0; s < spines.length; s++) {
                spines[s] = c.addSwitch("spine" + Cabling.pad(s + 1, spines.length), DeviceRole.SPINE, r, speed);
                spines[s].setModel(SwitchSku.of(spines[s]));
                spines[s].setPod(0);
            }
            for (Device[] unitLeaves : leaves) {
                for (Device leaf : unitLeaves) {
                    connectAll(c, leaf, spines, plan.leafSpinePerPair(), speed, p.leafSpineCableM());
                }
            }
            return f;
        }

        int groups = plan.spineGroups();
        Device[][] groupSpines = new Device[groups][plan.spinesPerGroup()];
        for (int grp = 0; grp < groups; grp++) {
            String prefix = (p.unitsPerSpineGroup() == 1 ? "su" : "sg") + Cabling.pad(grp + 1, groups);
            for (int j = 0; j < plan.spinesPerGroup(); j++) {
                Device spine = c.addSwitch(prefix + "-spine" + Cabling.pad(j + 1, plan.spinesPerGroup()),
                        DeviceRole.SPINE, r, speed);
                spine.setModel(SwitchSku.of(spine));
                spine.setPod(grp);
                if (p.unitsPerSpineGroup() == 1) {
                    spine.setUnit(grp);
                }
                groupSpines[grp][j] = spine;
            }
            for (int u = grp * p.unitsPerSpineGroup(); u < (grp + 1) * p.unitsPerSpineGroup(); u++) {
                for (Device leaf : leaves[u]) {
                    connectAll(c, leaf, groupSpines[grp], plan.leafSpinePerPair(), speed, p.leafSpineCableM());
                }
            }
        }
        for (int j = 0; j < plan.spinesPerGroup(); j++) {
            Device[] cores = new Device[plan.coresPerGroup()];
            for (int i = 0; i < cores.length; i++) {
                cores[i] = c.addSwitch("cg" + Cabling.pad(j + 1, plan.spinesPerGroup()) + "-core"
                        + Cabling.pad(i + 1, cores.length), DeviceRole.CORE, r, speed);
                cores[i].setModel(SwitchSku.of(cores[i]));
                cores[i].labels().put("coreGroup", Integer.toString(j));
            }
            for (int grp = 0; grp < groups; grp++) {
                connectAll(c, groupSpines[grp][j], cores, plan.spineCorePerPair(), speed, p.spineCoreCableM());
            }
        }
        return f;
    }

    /** {@code perPair} links from {@code lower} to each of {@code uppers}, round-robin so parallel links interleave. */
    private static void connectAll(Cabling c, Device lower, Device[] uppers, int perPair, int speed, double lengthM) {
        for (int m = 0; m < perPair; m++) {
            for (Device upper : uppers) {
                c.switchToSwitch(lower, upper, speed, lengthM);
            }
        }
    }
}
