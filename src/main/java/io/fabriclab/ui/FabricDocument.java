package io.fabriclab.ui;

import java.nio.file.Path;

import io.fabriclab.diagram.Selection;
import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.edit.CommandStack;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.model.Fabric;

/** The fabric being edited with its undo history, selection and file. */
public final class FabricDocument {
    private final Fabric fabric;
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
