package io.fabriclab.ui;

import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.diagram.FabricPainter;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.edit.AddLinkCommand;
import io.fabriclab.edit.CompoundCommand;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.edit.MoveDevicesCommand;
import io.fabriclab.edit.SetPropertyCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;

/**
 * Edit and Fabric menu actions that change the drawing, each one undoable command: clipboard (copy,
 * cut, paste, duplicate), connect selected, bulk link by name pattern, auto layout, fold and unfold,
 * new fabric and new from template.
 */
final class EditActions {
    private final FabricEditor editor;
    private final FabricDocument doc;
    private final FabricCanvas canvas;
    private final BackgroundTasks tasks = BackgroundTasks.shared();

    EditActions(FabricEditor editor) {
        this.editor = editor;
        this.doc = editor.document();
        this.canvas = editor.canvas();
    }

    /**
     * What Copy and Cut took: a small fabric of its own holding copies of the devices and the
     * links among them, so Paste works after the originals were cut or deleted.
     */
    private Fabric clipboard;
    private int pasteCount;

    public void copySelection() {
        List<Device> sel = List.copyOf(doc.selection().devices());
        if (sel.isEmpty()) {
            editor.message("Nothing selected to copy");
            return;
        }
        Fabric clip = new Fabric("clipboard");
        new io.fabriclab.edit.DuplicateCommand(doc.fabric(), clip, sel, 0, 0).execute();
        clipboard = clip;
        pasteCount = 0;
        editor.message("Copied " + sel.size() + " devices and " + clip.linkCount() + " links among them");
    }

    /** Copy, then delete the selection (one undo step for the delete). */
    public void cutSelection() {
        if (doc.selection().devices().isEmpty()) {
            editor.message("Nothing selected to cut");
            return;
        }
        copySelection();
        canvas.deleteSelection();
        pasteCount = -1; // the first paste lands where the cut devices were
    }

    public void paste() {
        if (clipboard == null || clipboard.devices().isEmpty()) {
            editor.message("Nothing to paste");
            return;
        }
        double off = 4 * io.fabriclab.diagram.DiagramStyle.GRID * ++pasteCount;
        io.fabriclab.edit.DuplicateCommand c = new io.fabriclab.edit.DuplicateCommand(clipboard, doc.fabric(),
                clipboard.devices(), off, off);
        doc.execute(c);
        doc.selection().set(c.copies(), c.copiedLinks());
        editor.message("Pasted " + c.copies().size() + " devices and " + c.copiedLinks().size() + " links");
    }

    /** Copies devices and the links among them, offset down-right by n grid steps of 4. */
    public void duplicate(java.util.Collection<Device> devices, int n) {
        if (devices.isEmpty()) {
            editor.message("Select devices to duplicate");
            return;
        }
        double off = 4 * io.fabriclab.diagram.DiagramStyle.GRID * n;
        io.fabriclab.edit.DuplicateCommand c = new io.fabriclab.edit.DuplicateCommand(doc.fabric(), devices, off, off);
        doc.execute(c);
        doc.selection().set(c.copies(), c.copiedLinks());
        editor.message(c.description() + " (" + c.copiedLinks().size() + " links kept)");
    }

    /** Two devices: one link. More: every selected device cabled to every selected device one tier up. */
    public void connectSelected() {
        List<Device> sel = new ArrayList<>(doc.selection().devices());
        if (sel.size() < 2) {
            editor.message("Select two or more devices to connect");
            return;
        }
        if (sel.size() == 2) {
            canvas.link(sel.get(0), sel.get(1));
            return;
        }
        sel.sort(Comparator.comparingInt(d -> d.role().tier()));
        List<FabricCommand> links = new ArrayList<>();
        Fabric f = doc.fabric();
        try {
            // Build the commands one by one against a scratch copy of port use: execute as we go
            // inside a compound so each choice sees the ports the previous ones took.
            for (Device low : sel) {
                for (Device high : sel) {
                    if (high.role().tier() == low.role().tier() + 1) {
                        AddLinkCommand c = new AddLinkCommand(f, low, high);
                        c.execute();
                        links.add(c);
                    }
                }
            }
        } catch (IllegalArgumentException ex) {
            for (int i = links.size() - 1; i >= 0; i--) {
                links.get(i).undo();
            }
            editor.message("Cannot connect: " + ex.getMessage());
            return;
        }
        for (int i = links.size() - 1; i >= 0; i--) {
            links.get(i).undo();
        }
        if (links.isEmpty()) {
            editor.message("No pair of selected devices sits in adjacent tiers");
            return;
        }
        doc.execute(new CompoundCommand("Connect " + links.size() + " links", links));
        editor.message("Added " + links.size() + " links between adjacent tiers");
    }

    public void autoLayout() {
        doc.execute(MoveDevicesCommand.toLayout(doc.fabric(), "Auto layout",
                new TieredLayout().layout(doc.fabric())));
        canvas.fitToWindow();
    }

    /** File > New: an empty fabric in this window, undoable (Ctrl+Z brings the previous one back). */
    public void newBlank() {
        Fabric f = new Fabric("untitled");
        doc.execute(new ReplaceFabricCommand(doc, "New fabric", f, null));
        editor.message("New empty fabric: drag devices from the palette (Ctrl+Z brings the previous fabric back)");
    }

    /** File > New from Template: the generator dialog; OK replaces the fabric as one undoable step. */
    public void newFromTemplate() {
        editor.openTemplateDialog().show(this::applyTemplate);
    }

    void applyTemplate(TemplateDialog.Generated g) {
        doc.execute(new ReplaceFabricCommand(doc, "New from template (" + g.kind() + ")", g.fabric(), null));
        editor.message("Generated " + g.kind() + ": " + TemplateDialog.previewText(g).replace('\n', ' ')
                + " (Ctrl+Z undoes it)");
    }

    /**
     * Folds (or unfolds) the scalable units or racks of the selected devices into one box: a layout
     * change saved with the file, and undoable.
     */
    public void foldSelection(boolean fold) {
        Fabric f = doc.fabric();
        java.util.Set<String> keys = new java.util.TreeSet<>();
        for (Device d : doc.selection().devices()) {
            if (d.role() == DeviceRole.SERVER) {
                keys.add(FabricPainter.foldKey(f, d));
            } else if (d.unit() != null && d.role().tier() == 1) {
                keys.add("unit " + d.unit());
            } else {
                // A switch stands for the rack of servers under it.
                keys.add("rack " + d.id());
            }
        }
        java.util.Set<String> before = java.util.Set.copyOf(f.layout().foldedGroups());
        java.util.Set<String> after = new java.util.TreeSet<>(before);
        if (fold) {
            after.addAll(keys);
        } else if (keys.isEmpty()) {
            after.clear();
        } else {
            after.removeAll(keys);
        }
        if (after.equals(before)) {
            editor.message(fold ? "Select servers (or their unit's leaves) to fold their group" : "Nothing folded there");
            return;
        }
        java.util.Set<String> target = java.util.Set.copyOf(after);
        doc.execute(new SetPropertyCommand<java.util.Set<String>>((fold ? "Fold " : "Unfold ") + String.join(", ",
                fold ? keys : before.stream().filter(k -> !after.contains(k)).toList()),
                () -> java.util.Set.copyOf(f.layout().foldedGroups()), v -> {
                    f.layout().foldedGroups().clear();
                    f.layout().foldedGroups().addAll(v);
                }, target));
        if (fold) {
            doc.selection().clear();
        }
    }

    void bulkLinkDialog() {
        javafx.scene.control.Dialog<javafx.scene.control.ButtonType> d = new javafx.scene.control.Dialog<>();
        d.setTitle("Bulk link by name pattern");
        d.setHeaderText("Cable every device matching the first pattern to every device matching the second\n"
                + "(* any characters, ? one character), on the first free ports of equal speed.");
        d.initOwner(editor.getScene().getWindow());
        TextField from = new TextField("leaf*");
        TextField to = new TextField("spine*");
        javafx.scene.control.Spinner<Integer> perPair = new javafx.scene.control.Spinner<>(1, 64, 1);
        Label count = new Label();
        Runnable update = () -> {
            int a = io.fabriclab.edit.BulkLinkCommand.matching(doc.fabric(), from.getText()).size();
            int b = io.fabriclab.edit.BulkLinkCommand.matching(doc.fabric(), to.getText()).size();
            count.setText(a + " × " + b + " devices × " + perPair.getValue() + " = " + a * b * perPair.getValue()
                    + " links");
        };
        from.textProperty().addListener((o, x, y) -> update.run());
        to.textProperty().addListener((o, x, y) -> update.run());
        perPair.valueProperty().addListener((o, x, y) -> update.run());
        update.run();
        javafx.scene.layout.GridPane grid = new javafx.scene.layout.GridPane();
        grid.setHgap(8);
        grid.setVgap(8);
        grid.addRow(0, new Label("From"), from);
        grid.addRow(1, new Label("To"), to);
        grid.addRow(2, new Label("Links per pair"), perPair);
        grid.add(count, 1, 3);
        d.getDialogPane().setContent(grid);
        d.getDialogPane().getButtonTypes().addAll(javafx.scene.control.ButtonType.CANCEL,
                javafx.scene.control.ButtonType.OK);
        d.showAndWait().filter(b -> b == javafx.scene.control.ButtonType.OK).ifPresent(b -> {
            try {
                io.fabriclab.edit.BulkLinkCommand c = io.fabriclab.edit.BulkLinkCommand.byPattern(doc.fabric(),
                        from.getText(), to.getText(), perPair.getValue());
                doc.execute(c);
                doc.selection().set(List.of(), c.links());
                editor.message(c.description());
            } catch (IllegalArgumentException ex) {
                editor.message("Nothing linked: " + ex.getMessage());
            }
        });
    }

}
