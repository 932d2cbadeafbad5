package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.Finding;
import io.fabriclab.topology.Lint;
import javafx.scene.Scene;
import javafx.scene.control.ListCell;
import javafx.stage.Stage;

/**
 * Identical findings about many subjects are one row with a count (issue 16 item 21), like
 * `fabriclab validate` prints them; the panel still reports every individual finding.
 */
@ExtendWith(ApplicationExtension.class)
class ProblemsPaneGroupingTest {
    private FabricDocument doc;
    private ProblemsPane pane;

    @Start
    void start(Stage stage) {
        // Twelve one-NIC servers on one leaf: lint says the same SINGLE_HOMED_SERVER finding about each.
        Fabric f = new Fabric("single-homed");
        Device leaf = f.addDevice("leaf1", DeviceRole.LEAF);
        leaf.addPorts("eth", 1, 12, 400);
        for (int i = 1; i <= 12; i++) {
            Device srv = f.addDevice(String.format("srv%02d", i), DeviceRole.SERVER);
            f.connect(srv.addPort("nic0", 400, 0), leaf.port("eth" + i), 400, 3);
        }
        doc = new FabricDocument(f, null);
        pane = new ProblemsPane(doc);
        pane.setExpanded(true);
        stage.setScene(new Scene(pane, 900, 300));
        stage.show();
    }

    @Test
    void twelveIdenticalFindingsAreOneRowWithTheCountAndClickingSelectsTheFirstSubject(FxRobot robot) throws Exception {
        List<java.util.concurrent.CompletableFuture<List<Finding>>> checked = new java.util.ArrayList<>();
        robot.interact(() -> checked.add(pane.check()));
        checked.get(0).get(2, java.util.concurrent.TimeUnit.MINUTES); // lint runs in the background
        List<Finding> lint = Lint.check(doc.fabric());
        List<Finding> isolated = lint.stream().filter(f -> f.code().equals("SINGLE_HOMED_SERVER")).toList();
        assertEquals(12, isolated.size(), "one finding per server: " + lint);

        assertEquals(lint, pane.findings(), "findings() stays the individual findings");
        assertEquals(Finding.group(lint), pane.list().getItems());
        List<Finding.Group> rows = pane.list().getItems().stream().filter(g -> g.code().equals("SINGLE_HOMED_SERVER"))
                .toList();
        assertEquals(1, rows.size(), "one row for the twelve: " + pane.list().getItems());
        Finding.Group row = rows.get(0);
        assertEquals(12, row.count());
        String text = ProblemsPane.rowText(row);
        assertTrue(text.contains("x12"), text);
        assertTrue(text.contains("srv01, srv02, srv03 and 9 more"), text);

        robot.interact(() -> pane.list().scrollTo(row));
        WaitForAsyncUtils.waitForFxEvents();
        @SuppressWarnings("unchecked")
        ListCell<Finding.Group> cell = robot.lookup(".list-cell").match(n -> n instanceof ListCell<?> c
                && c.getItem() == row).queryAs(ListCell.class);
        assertEquals(text, cell.getText());
        robot.clickOn(cell);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(Set.of("srv01"), doc.selection().devices().stream().map(Device::id).collect(Collectors.toSet()));
    }
}
