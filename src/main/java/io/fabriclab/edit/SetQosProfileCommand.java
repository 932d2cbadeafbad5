package io.fabriclab.edit;

import java.util.Objects;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

/**
 * Puts one QoS profile into the fabric's profile map, replacing the profile of the same name or adding
 * a new one. Undo puts back exactly what was there: the old profile (in its place in the map's order),
 * or, for a new profile, removes it and restores the fabric's default profile name.
 */
public final class SetQosProfileCommand implements FabricCommand {
    private final Fabric fabric;
    private final QosProfile profile;
    private QosProfile old;
    private String oldDefault;
    private boolean captured;
    private final boolean adds;

    public SetQosProfileCommand(Fabric fabric, QosProfile profile) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
        this.profile = Objects.requireNonNull(profile, "profile");
        this.adds = fabric.qosProfile(profile.name()) == null;
        if (profile.name() == null || profile.name().isBlank()) {
            throw new IllegalArgumentException("a QoS profile needs a name");
        }
    }

    /** True when the fabric already holds exactly this profile (the editor then records nothing). */
    public boolean isNoOp() {
        return profile.equals(fabric.qosProfile(profile.name()));
    }

    public QosProfile profile() {
        return profile;
    }

    @Override
    public String description() {
        return (adds ? "Add" : "Edit") + " QoS profile " + profile.name();
    }

    @Override
    public void execute() {
        if (!captured) {
            old = fabric.qosProfile(profile.name());
            oldDefault = fabric.defaultQosProfile();
            captured = true;
        }
        fabric.putQosProfile(profile);
    }

    @Override
    public void undo() {
        if (old == null) {
            fabric.removeQosProfile(profile.name());
        } else {
            fabric.putQosProfile(old);
        }
        fabric.setDefaultQosProfile(oldDefault);
    }
}
