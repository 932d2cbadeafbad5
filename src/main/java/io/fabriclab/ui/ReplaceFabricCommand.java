package io.fabriclab.ui;

import java.nio.file.Path;

import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.model.Fabric;

/**
 * Puts a whole new fabric into the document (a generator run, an import, File > New) as one
 * undoable step: undo brings back the previous fabric object untouched, with its file, so the
 * commands below this one on the stack still apply to the fabric they were made for.
 */
final class ReplaceFabricCommand implements FabricCommand {
    private final FabricDocument doc;
    private final String description;
    private final Fabric next;
    private final Path nextFile;
    private Fabric previous;
    private Path previousFile;

    ReplaceFabricCommand(FabricDocument doc, String description, Fabric next, Path nextFile) {
        this.doc = doc;
        this.description = description;
        this.next = next;
        this.nextFile = nextFile;
        // Generated and imported fabrics may come without positions: lay out what is missing once, here.
        new TieredLayout().placeMissing(next, next.layout());
    }

    Fabric fabric() {
        return next;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void execute() {
        previous = doc.fabric();
        previousFile = doc.file();
        doc.replace(next, nextFile);
    }

    @Override
    public void undo() {
        doc.replace(previous, previousFile);
    }
}
