package io.fabriclab.edit;

/**
 * One undoable edit of a fabric (Scene Builder's "Job"): {@link #execute()} applies it,
 * {@link #undo()} puts the fabric back exactly as it was before, and execute may run again after an
 * undo (redo). Commands are pure model edits, usable from the editor and the command line alike.
 */
public interface FabricCommand {

    /** What the edit does, for menus ("Undo Delete 3 devices") and logs. */
    String description();

    void execute();

    void undo();
}
