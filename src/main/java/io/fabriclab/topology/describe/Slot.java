package io.fabriclab.topology.describe;

/** What a description can say: one fabric parameter per slot (docs/describe.md lists the phrasings). */
public enum Slot {
    KIND("topology"),
    LEAVES("leaves"),
    SPINES("spines"),
    CORES("cores"),
    SERVERS("servers"),
    GPUS("GPUs in total"),
    SERVERS_PER_LEAF("servers per leaf"),
    SERVERS_PER_UNIT("servers per scalable unit"),
    GPUS_PER_SERVER("GPUs per server"),
    NICS_PER_SERVER("NICs per server"),
    NIC_SPEED("NIC speed"),
    UPLINK_SPEED("uplink speed"),
    SPEED("speed of every link"),
    UNITS("scalable units"),
    UNITS_PER_GROUP("scalable units per spine group"),
    RADIX("ports per switch"),
    K("fat-tree k"),
    TIERS("switch tiers"),
    UPLINKS_PER_PAIR("links per leaf-spine pair"),
    UPLINKS_PER_LEAF("uplinks per leaf"),
    OVERSUBSCRIPTION("oversubscription"),
    SERVER_CABLE("server cable length"),
    SWITCH_CABLE("cable length between switch tiers"),
    LEAF_SPINE_CABLE("leaf-spine cable length"),
    SPINE_CORE_CABLE("spine-core cable length"),
    TRANSPORT("transport"),
    PFC("PFC"),
    ECN("ECN"),
    DCQCN("DCQCN"),
    PRIORITY("lossless priority"),
    DSCP("DSCP of RDMA traffic"),
    GPU_MODEL("GPU"),
    LEAF_MODEL("leaf switch model"),
    SPINE_MODEL("spine switch model"),
    CORE_MODEL("core switch model"),
    SWITCH_MODEL("switch model (every switch)"),
    NAME("fabric name");

    private final String label;

    Slot(String label) {
        this.label = label;
    }

    /** How the table of what was understood names the slot. */
    public String label() {
        return label;
    }
}
