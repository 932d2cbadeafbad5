package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;

/** Help > About FabricLab shows the version of pom.xml, the one `fabriclab --version` and the installers use. */
@ExtendWith(ApplicationExtension.class)
class AboutDialogTest {
    private FabricEditor editor;
    private final List<String> shown = new ArrayList<>();

    @Start
    void start(Stage stage) {
        editor = new FabricEditor(new FabricDocument(DemoFabric.classic(), null));
        editor.setDialogService(new DialogService() {
            @Override
            public boolean confirm(String header, String text) {
                return true;
            }

            @Override
            public void showReport(String title, String text) {
                shown.add(title + "\n" + text);
            }
        });
        stage.setScene(new Scene(editor, 900, 600));
        stage.show();
    }

    @Test
    void helpAboutShowsThePomVersion(FxRobot robot) throws Exception {
        Matcher m = Pattern.compile("<artifactId>fabriclab</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find(), "pom.xml declares the project version");
        String pomVersion = m.group(1);

        Menu help = editor.menuBar().getMenus().stream().filter(x -> x.getText().equals("Help")).findFirst().orElseThrow();
        MenuItem about = help.getItems().stream().filter(i -> "menu-about".equals(i.getId())).findFirst().orElseThrow();
        robot.interact(about::fire);
        assertEquals(1, shown.size());
        assertTrue(shown.get(0).startsWith("About FabricLab\nFabricLab " + pomVersion + "\n"), shown.get(0));
    }
}
