package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import io.fabriclab.edit.AddDeviceCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.Lint;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * The problems panel never shows a result for a fabric it did not check (issue: after one slow
 * check, automatic lint stayed off and the panel said "No findings" for an unchecked fabric).
 */
@ExtendWith(ApplicationExtension.class)
class ProblemsPaneTest {
    private FabricDocument doc;
    private ProblemsPane pane;

    /** A fabric just over the automatic-check size: servers without links (each a lint finding). */
    private static Fabric large() {
        Fabric f = new Fabric("large");
        for (int i = 0; i <= ProblemsPane.AUTO_CHECK_MAX_ELEMENTS; i++) {
            f.addDevice("srv" + i, DeviceRole.SERVER);
        }
        return f;
    }

    @Start
    void start(Stage stage) {
        doc = new FabricDocument(large(), null);
        pane = new ProblemsPane(doc);
        pane.setExpanded(true);
        stage.setScene(new Scene(pane, 600, 300));
        stage.show();
    }

    @Test
    void theSizeDecidesWhetherLintRunsAfterEachEditNotTheMachinesSpeed() {
        assertFalse(ProblemsPane.checksAutomatically(large()));
        assertTrue(ProblemsPane.checksAutomatically(DemoFabric.classic()));
    }

    @Test
    void anEditThatIsNotRecheckedEmptiesTheListAndSaysSoUntilCheckIsPressed(FxRobot robot) {
        robot.interact(pane::check);
        robot.interact(() -> { });
        int before = pane.findings().size();
        assertEquals(Lint.check(doc.fabric()).size(), before, "the first check lists lint's findings");
        assertTrue(before > 0, "isolated servers are findings");

        robot.interact(() -> doc.execute(new AddDeviceCommand(doc.fabric(), new Device("srv-new", DeviceRole.SERVER), 0, 0)));
        // Not re-checked (too large to re-check on every edit): the old findings are gone, nothing
        // claims "no findings", and the title says the fabric is not checked.
        assertEquals(0, pane.findings().size());
        assertEquals(ProblemsPane.NOT_CHECKED, ((Label) pane.list().getPlaceholder()).getText());
        assertTrue(pane.getText().startsWith("Problems: not checked since the last edit"), pane.getText());

        robot.interact(pane::check);
        assertEquals(Lint.check(doc.fabric()), pane.findings());
        assertEquals(ProblemsPane.NO_FINDINGS, ((Label) pane.list().getPlaceholder()).getText());
        assertTrue(pane.getText().startsWith("Problems: "), pane.getText());
    }
}
