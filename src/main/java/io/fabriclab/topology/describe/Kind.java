package io.fabriclab.topology.describe;

/** The generator a description asks for. */
public enum Kind {
    LEAF_SPINE("leaf-spine"),
    RAIL("rail-optimized"),
    FAT_TREE("fat tree");

    private final String words;

    Kind(String words) {
        this.words = words;
    }

    /** The words describe writes for it. */
    public String words() {
        return words;
    }

    @Override
    public String toString() {
        return words;
    }
}
