package io.fabriclab.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.TestFabrics;
import io.fabriclab.model.WredEcn;

/** SetQosProfileCommand and AssignQosProfileCommand: one undo step each, undo and redo restore exactly. */
class QosProfileCommandsTest {

    /** The fabric plus its profiles in map order and the default profile's name. */
    private static List<String> state(Fabric f) {
        List<String> lines = new ArrayList<>(FabricSnapshot.of(f));
        f.qosProfiles().forEach((n, p) -> lines.add("profile " + n + " = " + p));
        lines.add("default " + f.defaultQosProfile());
        return lines;
    }

    @Test
    void editingAProfileIsOneUndoStepAndUndoRedoRestoreExactly() {
        Fabric f = TestFabrics.leafSpine(2, 2, 2, 1);
        f.putQosProfile(QosProfile.bestEffort("lossy")); // a second profile after "rdma": the order must survive
        List<String> before = state(f);
        QosProfile old = f.qosProfile("rdma");
        QosProfile edited = old.withEcn(old.ecn().withClass(3, new WredEcn(100_000, 900_000, 0.1)));
        SetQosProfileCommand c = new SetQosProfileCommand(f, edited);
        assertEquals("Edit QoS profile rdma", c.description());
        CommandStack stack = new CommandStack();
        stack.execute(c);
        assertEquals(edited, f.qosProfile("rdma"));
        List<String> after = state(f);
        assertNotEquals(before, after);
        assertEquals(List.of("rdma", "lossy"), List.copyOf(f.qosProfiles().keySet()), "replaced in place");
        assertEquals(1, stack.undoDepth());
        stack.undo();
        assertEquals(before, state(f));
        stack.redo();
        assertEquals(after, state(f));
        assertTrue(new SetQosProfileCommand(f, edited).isNoOp());
    }

    @Test
    void addingAProfileToAFabricWithoutOneUndoesToNoProfileAndNoDefault() {
        Fabric f = new Fabric("empty");
        List<String> before = state(f);
        SetQosProfileCommand c = new SetQosProfileCommand(f, QosProfile.roceLossless("new", 400));
        assertEquals("Add QoS profile new", c.description());
        CommandStack stack = new CommandStack();
        stack.execute(c);
        assertEquals("new", f.defaultQosProfile(), "the first profile becomes the default");
        List<String> after = state(f);
        stack.undo();
        assertEquals(before, state(f));
        assertEquals(null, f.defaultQosProfile());
        stack.redo();
        assertEquals(after, state(f));
    }

    @Test
    void assigningToDevicesOrPortsIsOneUndoStepAndUndoRestoresEveryOldName() {
        Fabric f = TestFabrics.leafSpine(2, 2, 2, 1);
        f.putQosProfile(QosProfile.bestEffort("lossy"));
        var leaf = f.switches().get(0);
        leaf.ports().get(0).setQosProfile("rdma"); // a per-port profile that undo must give back
        List<String> before = state(f);
        CommandStack stack = new CommandStack();
        AssignQosProfileCommand ports = new AssignQosProfileCommand(f, "lossy", List.of(leaf),
                AssignQosProfileCommand.Target.PORTS);
        stack.execute(ports);
        leaf.ports().forEach(p -> assertEquals("lossy", p.qosProfile(), p.ref()));
        assertEquals("lossy", f.qosFor(leaf.ports().get(0)).name());
        List<String> afterPorts = state(f);
        stack.undo();
        assertEquals(before, state(f));
        stack.redo();
        assertEquals(afterPorts, state(f));
        stack.undo();

        AssignQosProfileCommand devices = new AssignQosProfileCommand(f, "lossy", f.switches(),
                AssignQosProfileCommand.Target.DEVICES);
        stack.execute(devices);
        f.switches().forEach(d -> assertEquals("lossy", d.qosProfile()));
        assertEquals("rdma", f.qosFor(leaf.ports().get(0)).name(), "the port's own profile still wins");
        stack.undo();
        assertEquals(before, state(f));
        assertThrows(IllegalArgumentException.class, () -> new AssignQosProfileCommand(f, "nope", List.of(leaf),
                AssignQosProfileCommand.Target.DEVICES));
    }
}
