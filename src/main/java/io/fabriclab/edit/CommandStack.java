package io.fabriclab.edit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Undo and redo stacks of executed commands plus a revision counter that changes on every
 * execute, undo and redo (views repaint on it). "Unsaved changes" compares the command on top
 * of the undo stack with the one that was on top when the fabric was saved, so undoing back to
 * the saved state makes the document clean again.
 *
 * <p>Two kinds of listener: {@link #addListener} hears changes of the fabric (execute, undo, redo,
 * clear), which views redraw and analyses recompute on; {@link #addSavedStateListener} hears those
 * and also a save, which changes only whether the fabric counts as modified (the window's title).
 * A save of a large fabric thus repaints nothing and keeps the problems found.
 */
public final class CommandStack {
    /** Oldest commands are forgotten beyond this depth. */
    public static final int DEFAULT_LIMIT = 1000;

    private final Deque<FabricCommand> undo = new ArrayDeque<>();
    private final Deque<FabricCommand> redo = new ArrayDeque<>();
    private final List<Runnable> listeners = new ArrayList<>();
    private final List<Runnable> savedStateListeners = new ArrayList<>();
    private final int limit;
    private long revision;
    private FabricCommand savedTop;
    /** False once the saved state's command fell off the bottom of the stack: it cannot come back. */
    private boolean savedReachable = true;
    /** How many commands fell off the bottom of the undo stack so far (a save point's state with an empty stack is gone after one). */
    private long dropped;

    public CommandStack() {
        this(DEFAULT_LIMIT);
    }

    public CommandStack(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        this.limit = limit;
    }

    /** Executes a command and pushes it; if it throws, nothing is pushed and the redo stack stays. */
    public void execute(FabricCommand c) {
        c.execute();
        undo.push(c);
        redo.clear();
        if (undo.size() > limit) {
            FabricCommand gone = undo.removeLast();
            dropped++;
            if (gone == savedTop || savedTop == null) {
                savedReachable = false;
            }
        }
        changed();
    }

    public boolean canUndo() {
        return !undo.isEmpty();
    }

    public boolean canRedo() {
        return !redo.isEmpty();
    }

    /** Undoes the newest command; returns false when there is nothing to undo. */
    public boolean undo() {
        if (undo.isEmpty()) {
            return false;
        }
        FabricCommand c = undo.pop();
        c.undo();
        redo.push(c);
        changed();
        return true;
    }

    /** Re-executes the newest undone command; returns false when there is nothing to redo. */
    public boolean redo() {
        if (redo.isEmpty()) {
            return false;
        }
        FabricCommand c = redo.pop();
        c.execute();
        undo.push(c);
        changed();
        return true;
    }

    public String undoDescription() {
        return undo.isEmpty() ? null : undo.peek().description();
    }

    public String redoDescription() {
        return redo.isEmpty() ? null : redo.peek().description();
    }

    public int undoDepth() {
        return undo.size();
    }

    public int redoDepth() {
        return redo.size();
    }

    /** Increases by one on every execute, undo and redo. */
    public long revision() {
        return revision;
    }

    /** Records the current state as the saved one. */
    public void markSaved() {
        savedTop = undo.peek();
        savedReachable = true;
        savedStateChanged();
    }

    /**
     * The state now, to be marked as saved later with {@link #markSaved(SavePoint)}: a save that
     * writes a copy in the background marks the state it copied, not the one the user has reached
     * by the time the file is written.
     */
    public SavePoint savePoint() {
        return new SavePoint(undo.peek(), dropped);
    }

    /**
     * Records the state of {@code p} as the saved one. Edits made since {@code p} then count as
     * unsaved; undoing them back to {@code p}'s state makes the document clean.
     */
    public void markSaved(SavePoint p) {
        savedTop = p.top;
        // Saved with an empty undo stack: that state is gone once a command has fallen off since.
        // A command on top, once dropped, never comes back to the top, so peek() alone decides.
        savedReachable = p.top != null || p.dropped == dropped;
        savedStateChanged();
    }

    /** A state of the stack, as {@link #savePoint()} took it. */
    public static final class SavePoint {
        private final FabricCommand top;
        private final long dropped;

        private SavePoint(FabricCommand top, long dropped) {
            this.top = top;
            this.dropped = dropped;
        }
    }

    /** True when the fabric differs from the last saved (or opened) state. */
    public boolean isModified() {
        return !savedReachable || undo.peek() != savedTop;
    }

    /** Forgets all history (a new or reopened document); the current state counts as saved. */
    public void clear() {
        undo.clear();
        redo.clear();
        savedTop = null;
        savedReachable = true;
        changed();
    }

    /** Hears every change of the fabric: execute, undo, redo, clear (not a save). */
    public void addListener(Runnable r) {
        listeners.add(r);
    }

    public void removeListener(Runnable r) {
        listeners.remove(r);
    }

    /** Hears every change of {@link #isModified()}'s inputs: each change of the fabric and each save. */
    public void addSavedStateListener(Runnable r) {
        savedStateListeners.add(r);
    }

    private void changed() {
        revision++;
        for (Runnable r : List.copyOf(listeners)) {
            r.run();
        }
        savedStateChanged();
    }

    private void savedStateChanged() {
        for (Runnable r : List.copyOf(savedStateListeners)) {
            r.run();
        }
    }
}
