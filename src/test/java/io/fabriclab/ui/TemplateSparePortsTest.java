package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import javafx.stage.Stage;

/** New from Template builds switches with room to grow (issue 16 item 8): the radix and spare-ports fields. */
@ExtendWith(ApplicationExtension.class)
class TemplateSparePortsTest {
    private TemplateDialog dlg;

    @Start
    void start(Stage stage) {
        dlg = new TemplateDialog(null);
        dlg.show(g -> { });
    }

    /**
     * The preview after {@code change}, once it says {@code expect} or 20 s have passed: the dialog
     * generates the fabric in the background and the FX thread writes the preview after it
     * ("generating…" until then, and the previous fabric's kind may be the same).
     */
    private String previewAfter(FxRobot robot, Runnable change, String kind, String expect) throws Exception {
        robot.interact(change);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> dlg.current() != null
                && dlg.current().kind().equals(kind));
        return preview(robot, expect);
    }

    private static String preview(FxRobot robot, String expect) {
        try {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS,
                    () -> robot.lookup("#template-preview").queryLabeled().getText().contains(expect));
        } catch (java.util.concurrent.TimeoutException e) {
            // the caller's assertion says what the preview shows
        }
        return robot.lookup("#template-preview").queryLabeled().getText();
    }

    @Test
    void aLeafSpineRadixPadsLeavesAndSpinesWithFreePorts(FxRobot robot) throws Exception {
        // Default leaf-spine (4 leaves x 8 servers x one 100G NIC, 2 spines, one 400G uplink per pair):
        // radix 0 builds exactly the ports in use, so nothing is free.
        String p = previewAfter(robot, () -> { }, "leaf-spine 4x2", "free switch ports: 0");
        assertTrue(p.contains("free switch ports: 0"), p);
        // Radix 32: each leaf 32 - 8 - 2 = 22 free, each spine 32 - 4 = 28 free: 4 x 22 + 2 x 28 = 144.
        p = previewAfter(robot, () -> dlg.lsRadix.getValueFactory().setValue(32), "leaf-spine 4x2",
                "free switch ports: 144");
        assertTrue(p.contains("free switch ports: 144"), p);
        Fabric f = dlg.current().fabric();
        for (Device spine : f.devices(DeviceRole.SPINE)) {
            assertEquals(32, spine.portCount());
            assertEquals(28, f.freePorts(spine).size());
            assertEquals(400, f.freePorts(spine).get(0).speedGbps(), "spare spine ports run at the uplink speed");
        }
        // Radix 9 is too small for a leaf (8 server ports + 2 uplinks): said, and OK stays off.
        robot.interact(() -> dlg.lsRadix.getValueFactory().setValue(9));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> robot.lookup("#template-preview").queryLabeled().getText().startsWith("Cannot build"));
        assertTrue(robot.lookup("#template-preview").queryLabeled().getText().contains("radix 9"));
        assertTrue(robot.lookup("#template-ok").query().isDisabled());
    }

    @Test
    void aFatTreeGetsSparePortsOnEverySwitch(FxRobot robot) throws Exception {
        // k=8: 8 pods x (4 edge + 4 aggregation) + (8/2)^2 = 16 cores = 80 switches, 2 spare ports each: 160 free.
        String p = previewAfter(robot, () -> {
            dlg.selectKind(2);
            dlg.ftSpare.getValueFactory().setValue(2);
        }, "fat tree k=8", "free switch ports: 160");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> dlg.current() != null
                && dlg.current().fabric().switches().get(0).portCount() == 10);
        p = preview(robot, "free switch ports: 160");
        assertTrue(p.contains("free switch ports: 160"), p);
    }
}
