package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.topology.describe.Descriptions;
import javafx.scene.Node;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/** New from Description: the marks and the table follow the typing; the preview is the fabric OK hands over. */
@ExtendWith(ApplicationExtension.class)
class DescriptionDialogTest {
    private DescriptionDialog dlg;
    private final TemplateDialog.Generated[] accepted = new TemplateDialog.Generated[1];

    @Start
    void start(Stage stage) {
        dlg = new DescriptionDialog(null, "");
        dlg.show(g -> accepted[0] = g);
    }

    private static List<String> marked(List<Node> nodes, String mark) {
        return nodes.stream().filter(n -> mark.equals(n.getProperties().get("mark"))).map(n -> ((Label) n).getText()).toList();
    }

    @Test
    void typingMarksUnderstoodDefaultedAndUnusedWordsAndBuildsThePreview(FxRobot robot) throws Exception {
        robot.interact(() -> dlg.text.setText("6 shiny leaves, 2 spines, 48 GPU servers with 8 x 400G NICs, PFC on priority 3"));
        List<Node> marks = List.copyOf(dlg.marked.getChildren());
        assertTrue(marked(marks, "understood").containsAll(List.of("6 shiny leaves".replace(" shiny", "").split(" ")[0])),
                marks.toString());
        assertEquals(List.of("shiny"), marked(marks, "unused"));
        assertTrue(marked(marks, "understood").contains("2 spines"), marked(marks, "understood").toString());
        assertEquals(1, marked(marks, "defaulted").size(), "the defaults chip");
        List<String> kinds = dlg.table.getItems().stream().map(DescriptionDialog.Row::kind).distinct().toList();
        assertEquals(List.of("not used", "default", "understood"), kinds);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> dlg.current() != null);
        assertEquals(56, dlg.current().fabric().devices().size(), "6 leaves + 2 spines + 48 servers");
        String p = robot.lookup("#description-preview").queryLabeled().getText();
        assertTrue(p.contains("Servers: 48") && p.contains("GPUs: 384"), p);
        robot.interact(() -> {
            dlg.dialog().setResult(ButtonType.OK);
            dlg.dialog().close();
        });
        assertNotNull(accepted[0]);
        assertEquals(56, accepted[0].fabric().devices().size());
    }

    @Test
    void aContradictionMarksItsWordsAndDisablesOk(FxRobot robot) throws Exception {
        robot.interact(() -> dlg.text.setText("4 leaves, 2 spines, 8 leaves"));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(marked(List.copyOf(dlg.marked.getChildren()), "error").containsAll(List.of("4 leaves", "8 leaves")),
                dlg.marked.getChildren().toString());
        String p = robot.lookup("#description-preview").queryLabeled().getText();
        assertTrue(p.startsWith("Cannot build this: '4 leaves' and '8 leaves' give two different leaves"), p);
        assertTrue(dlg.dialog().getDialogPane().lookupButton(ButtonType.OK).isDisabled());
        assertNull(dlg.current());
    }

    @Test
    void theWelcomeFieldMarksTheSentenceAndHandsItOver(FxRobot robot) {
        String[] handed = {null};
        WelcomePane[] pane = new WelcomePane[1];
        robot.interact(() -> pane[0] = new WelcomePane(() -> { }, () -> { }, () -> { }, t -> handed[0] = t));
        robot.interact(() -> pane[0].describe.setText(Descriptions.EXAMPLE + ", please, asap"));
        List<Node> marks = List.copyOf(pane[0].marks.getChildren());
        assertTrue(marked(marks, "understood").contains("Tomahawk 5 leaves"), marks.toString());
        assertEquals(List.of("asap"), marked(marks, "unused"));
        assertEquals(1, marked(marks, "defaulted").size());
        assertTrue(pane[0].understood.getText().contains("a rail-optimized fabric with 256 GPUs"), pane[0].understood.getText());
        robot.interact(pane[0].newFromDescription::fire);
        assertEquals(Descriptions.EXAMPLE + ", please, asap", handed[0]);
    }
}
