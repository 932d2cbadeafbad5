package io.fabriclab.ui;

import java.nio.file.Path;

import io.fabriclab.diagram.Selection;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.edit.CommandStack;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.model.Fabric;

/**
 * The fabric being edited with its undo history, selection and file. The fabric itself can be
 * replaced (File > New, New from Template, Import) by a {@link ReplaceFabricCommand}, so those
 * are undoable like any drawing edit; views therefore always ask {@link #fabric()} afresh.
 */
public final class FabricDocument {
    private Fabric fabric;
    private final CommandStack stack = new CommandStack();
    private final Selection selection = new Selection();
    private Path file;

    public FabricDocument(Fabric fabric, Path file) {
        this.fabric = fabric;
        this.file = file;
        new TieredLayout().placeMissing(fabric, fabric.layout());
    }

    public Fabric fabric() {
        return fabric;
    }

    /** Swaps the fabric and its file; only {@link ReplaceFabricCommand} calls this, inside the command stack. */
    void replace(Fabric f, Path p) {
        fabric = f;
        file = p;
    }

    /**
     * Opens {@code f} in this document in place of the fabric shown (the shipped example from the
     * Welcome page): opening is not an edit, so the history is forgotten and the fabric counts as
     * unmodified (issue 35 item 14: it was an undoable "Open example" that marked the title "*").
     * The caller asks about unsaved changes first.
     */
    public void open(Fabric f, Path p) {
        new TieredLayout().placeMissing(f, f.layout());
        fabric = f;
        file = p;
        selection.clear();
        stack.clear();
    }

    public CommandStack stack() {
        return stack;
    }

    public Selection selection() {
        return selection;
    }

    public Path file() {
        return file;
    }

    public void setFile(Path file) {
        this.file = file;
    }

    /** Runs an edit through the undo stack; the selection drops what the edit removed. */
    public void execute(FabricCommand c) {
        stack.execute(c);
        selection.retainExisting(fabric);
    }

    public void undo() {
        stack.undo();
        selection.retainExisting(fabric);
    }

    public void redo() {
        stack.redo();
        selection.retainExisting(fabric);
    }
}
