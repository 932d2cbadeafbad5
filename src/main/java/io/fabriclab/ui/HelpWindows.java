package io.fabriclab.ui;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;

/**
 * The Help menu's windows: the user guide shipped in the jar (read offline), every keyboard
 * shortcut read from the menu bar itself (so the list cannot drift from the real accelerators),
 * and the welcome page.
 */
final class HelpWindows {
    /** docs/user-guide.md, copied into the jar by pom.xml (a resource entry next to the examples). */
    static final String GUIDE_RESOURCE = "/fabriclab/docs/user-guide.md";
    /** The shipped example Open Example loads: the one `fabriclab gui` opens without a file. */
    static final String EXAMPLE_RESOURCE = "/fabriclab/examples/classic-leaf-spine.json";

    private HelpWindows() {
    }

    /** The user guide's markdown, from the classpath; a clear message if this build lacks it. */
    static String guideText() {
        try (InputStream in = HelpWindows.class.getResourceAsStream(GUIDE_RESOURCE)) {
            if (in == null) {
                return "The user guide (" + GUIDE_RESOURCE + ") is missing from this build; it is docs/user-guide.md in the"
                        + " source tree.";
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "The user guide cannot be read: " + e.getMessage();
        }
    }

    /**
     * The markdown made readable as plain text: headings underlined, table rows as aligned
     * columns' cells separated by bars, links reduced to their text. No HTML renderer is a
     * dependency (JavaFX WebView is not), and the guide reads well as text.
     */
    static String plain(String markdown) {
        StringBuilder out = new StringBuilder();
        for (String line : markdown.split("\r?\n", -1)) {
            String l = line.replaceAll("\\[([^\\]]+)\\]\\([^)]*\\)", "$1");
            if (l.startsWith("#")) {
                String title = l.replaceFirst("^#+\\s*", "");
                char under = l.startsWith("# ") ? '=' : '-';
                out.append(title).append('\n').append(String.valueOf(under).repeat(title.length())).append('\n');
            } else if (l.matches("\\|[-|: ]+\\|")) {
                continue; // the table's header separator
            } else if (l.startsWith("|") && l.endsWith("|")) {
                out.append("  ").append(l.substring(1, l.length() - 1).trim().replace(" | ", "  |  ")).append('\n');
            } else {
                out.append(l).append('\n');
            }
        }
        return out.toString();
    }

    /** One accelerator: the top-level menu, the item's label and the keys as this platform shows them. */
    record Shortcut(String menu, String command, String keys) {
    }

    /**
     * Every item with an accelerator in the menu bar, in menu order, submenus included and hidden
     * alternatives (Redo's Ctrl+Shift+Z) too, since they work.
     */
    static List<Shortcut> shortcuts(MenuBar bar) {
        List<Shortcut> out = new ArrayList<>();
        for (Menu m : bar.getMenus()) {
            collect(m.getText(), m.getItems(), out);
        }
        return out;
    }

    private static void collect(String menu, List<MenuItem> items, List<Shortcut> out) {
        for (MenuItem i : items) {
            if (i.getAccelerator() != null) {
                // Labels such as "Delete\t(Del)" carry a key hint after a tab; the window shows the accelerator instead.
                String text = i.getText() == null ? "" : i.getText().split("\t")[0].trim();
                out.add(new Shortcut(menu, text, i.getAccelerator().getDisplayText()));
            }
            if (i instanceof Menu sub) {
                collect(menu, sub.getItems(), out);
            }
        }
    }

    /** Help > User Guide: the guide as text in its own window (one per editor). */
    static Stage showGuide(FabricEditor editor) {
        TextArea text = new TextArea(plain(guideText()));
        text.setId("user-guide-text");
        text.setEditable(false);
        text.setWrapText(true);
        text.setStyle("-fx-font-family: monospace;");
        return window(editor, "help.guide", "FabricLab User Guide", new Scene(text, 860, 760));
    }

    /** Help > Keyboard Shortcuts: a table of every accelerator, grouped by menu. */
    static Stage showShortcuts(FabricEditor editor, MenuBar bar) {
        TableView<Shortcut> table = new TableView<>();
        table.setId("shortcuts-table");
        table.getColumns().add(column("Menu", Shortcut::menu, 110));
        table.getColumns().add(column("Command", Shortcut::command, 300));
        table.getColumns().add(column("Keys", Shortcut::keys, 160));
        table.getItems().setAll(shortcuts(bar));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        return window(editor, "help.shortcuts", "Keyboard Shortcuts", new Scene(table, 600, 640));
    }

    private static TableColumn<Shortcut, String> column(String title, java.util.function.Function<Shortcut, String> f,
                                                        double width) {
        TableColumn<Shortcut, String> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(f.apply(d.getValue())));
        c.setPrefWidth(width);
        c.setSortable(false); // menu order is the order the menus show
        return c;
    }

    /**
     * The welcome page at start (issue 16): on the first start, or at every start when the user asked
     * for it; not when a fabric file was named on the command line (the user knows what to open; the
     * page then waits for a plain start). Returns the window, or null when it does not open.
     */
    static Stage welcomeOnStart(FabricEditor editor, boolean fileGiven) {
        if (fileGiven || !WelcomePreference.showAtStart()) {
            return null;
        }
        WelcomePreference.markSeen();
        return showWelcome(editor);
    }

    /** Help > Welcome…: the welcome page with its actions wired to this editor. */
    static Stage showWelcome(FabricEditor editor) {
        Stage[] self = new Stage[1];
        WelcomePane pane = new WelcomePane(
                () -> {
                    openExample(editor);
                    self[0].close();
                },
                () -> {
                    self[0].close();
                    editor.edits().newFromTemplate();
                },
                () -> {
                    watchPauseStorm(editor);
                    self[0].close();
                },
                text -> {
                    self[0].close();
                    DescriptionDialog.open(editor, text);
                });
        self[0] = window(editor, "help.welcome", "Welcome to FabricLab", new Scene(pane, 640, 460));
        return self[0];
    }

    /**
     * Loads the shipped example off the FX thread and opens it in place of the open fabric, without
     * a file (Save then asks where to write instead of overwriting the example). Opening is not an
     * edit: it asks about unsaved changes first, leaves nothing to undo and the fabric unmodified.
     * A failure is reported and leaves the open fabric as it was.
     */
    static java.util.concurrent.CompletableFuture<Fabric> openExample(FabricEditor editor) {
        return openExample(editor, () -> { });
    }

    private static java.util.concurrent.CompletableFuture<Fabric> openExample(FabricEditor editor, Runnable then) {
        return editor.confirmDiscard().thenCompose(goOn -> !goOn
                ? java.util.concurrent.CompletableFuture.completedFuture(null)
                : BackgroundTasks.shared().run("Opening the example", HelpWindows::loadExample, f -> {
                    editor.document().open(f, null);
                    editor.message("Opened the example " + f.name());
                    then.run();
                }, ex -> editor.dialogs().showErrors("Cannot open the shipped example", String.valueOf(ex.getMessage()))));
    }

    /**
     * The live preset Watch a Pause Storm chooses, as the run panel's workload list shows it: an
     * 8:1 incast under PFC only, written for the shipped example (ui.live.LivePreset.PFC_SPREADING;
     * HelpWindowsTest checks the two agree). Named here, not referenced, so the Help menu adds no
     * dependency to the frozen ui <-> ui.live cycle (ArchitectureTest).
     */
    static final String PAUSE_STORM = "preset: incast: PFC pauses spread upstream";

    /**
     * Opens the example the pause-storm preset is written for, then the live view with that preset
     * chosen in its workload list as a user would (which also sets its watchable speed); the user
     * presses Play. A live view already open is closed first, so the new one is built on the example.
     */
    static void watchPauseStorm(FabricEditor editor) {
        openExample(editor, () -> {
            if (editor.livePanel() != null) {
                editor.showLiveView(false);
            }
            editor.showLiveView(true);
            for (javafx.scene.Node n : editor.lookupAll(".combo-box")) {
                if (n instanceof javafx.scene.control.ComboBox<?> box) {
                    for (Object item : box.getItems()) {
                        if (PAUSE_STORM.equals(String.valueOf(item))) {
                            box.getSelectionModel().select(box.getItems().indexOf(item));
                            editor.message("Live view on the " + PAUSE_STORM + ": press Play.");
                            return;
                        }
                    }
                }
            }
            editor.message("Live view open: choose a live preset in the workload list and press Play.");
        });
    }

    private static Fabric loadExample() throws Exception {
        Path tree = Path.of(Launcher.EXAMPLE);
        if (Files.isRegularFile(tree)) {
            return FabricFiles.load(tree);
        }
        try (InputStream in = HelpWindows.class.getResourceAsStream(EXAMPLE_RESOURCE)) {
            if (in == null) {
                throw new IOException("the shipped example " + EXAMPLE_RESOURCE + " is missing from this build");
            }
            // FabricFiles reads files (its errors name the file); a temporary copy keeps that path.
            Path dir = Files.createTempDirectory("fabriclab-example");
            Path out = dir.resolve("classic-leaf-spine.json");
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            try {
                return FabricFiles.load(out);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(dir);
            }
        }
    }

    /** One window of each kind per editor, owned by the editor's window; asking again brings it to the front. */
    private static Stage window(FabricEditor editor, String key, String title, Scene scene) {
        if (editor.getProperties().get(key) instanceof Stage s) {
            s.setScene(scene);
            s.show();
            s.toFront();
            return s;
        }
        Stage s = new Stage();
        s.setTitle(title);
        if (editor.getScene() != null && editor.getScene().getWindow() != null) {
            s.initOwner(editor.getScene().getWindow());
        }
        s.setScene(scene);
        s.setOnHidden(e -> editor.getProperties().remove(key));
        editor.getProperties().put(key, s);
        s.show();
        return s;
    }
}
