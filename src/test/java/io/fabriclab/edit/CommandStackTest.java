package io.fabriclab.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class CommandStackTest {

    /** Appends its name to a shared log on execute and removes it on undo. */
    private static FabricCommand append(List<String> log, String name) {
        return new FabricCommand() {
            public String description() {
                return "append " + name;
            }

            public void execute() {
                log.add(name);
            }

            public void undo() {
                assertEquals(name, log.remove(log.size() - 1), "undo runs newest first");
            }
        };
    }

    @Test
    void undoAndRedoReplayCommandsInStackOrder() {
        List<String> log = new ArrayList<>();
        CommandStack stack = new CommandStack();
        stack.execute(append(log, "a"));
        stack.execute(append(log, "b"));
        assertEquals("append b", stack.undoDescription());
        assertTrue(stack.undo());
        assertEquals(List.of("a"), log);
        assertEquals("append b", stack.redoDescription());
        assertTrue(stack.redo());
        assertEquals(List.of("a", "b"), log);
        assertTrue(stack.undo());
        assertTrue(stack.undo());
        assertFalse(stack.undo(), "nothing left to undo");
        assertEquals(List.of(), log);
        assertEquals(2, stack.redoDepth());
    }

    @Test
    void aNewCommandAfterUndoDiscardsTheRedoStack() {
        List<String> log = new ArrayList<>();
        CommandStack stack = new CommandStack();
        stack.execute(append(log, "a"));
        stack.undo();
        stack.execute(append(log, "c"));
        assertFalse(stack.canRedo());
        assertEquals(List.of("c"), log);
    }

    @Test
    void revisionCountsEveryExecuteUndoAndRedo() {
        CommandStack stack = new CommandStack();
        List<String> log = new ArrayList<>();
        long r0 = stack.revision();
        stack.execute(append(log, "a")); // +1
        stack.undo();                    // +1
        stack.redo();                    // +1
        stack.undo();                    // +1
        stack.undo();                    // nothing to undo: +0
        assertEquals(r0 + 4, stack.revision());
    }

    @Test
    void unsavedChangesFollowTheSavedPointThroughUndoAndRedo() {
        List<String> log = new ArrayList<>();
        CommandStack stack = new CommandStack();
        assertFalse(stack.isModified(), "a fresh document is clean");
        stack.execute(append(log, "a"));
        assertTrue(stack.isModified());
        stack.markSaved();
        assertFalse(stack.isModified());
        stack.undo();
        assertTrue(stack.isModified(), "undo past the save point");
        stack.redo();
        assertFalse(stack.isModified(), "redo back to the saved state is clean again");
        stack.undo();
        stack.execute(append(log, "b"));
        assertTrue(stack.isModified(), "the saved state can no longer be reached");
    }

    @Test
    void aSavePointMarksTheStateItTookNotTheOneReachedWhileTheFileWasWritten() {
        List<String> log = new ArrayList<>();
        CommandStack stack = new CommandStack();
        stack.execute(append(log, "a"));
        CommandStack.SavePoint copied = stack.savePoint(); // a background save copies the fabric here
        stack.execute(append(log, "b"));                   // the user edits while it writes
        stack.markSaved(copied);                           // the write ends
        assertTrue(stack.isModified(), "b is not in the file");
        stack.undo();
        assertFalse(stack.isModified(), "back at the state that was written");
        stack.redo();
        assertTrue(stack.isModified());
    }

    @Test
    void aSavePointOfTheEmptyStackIsLostOnceACommandFallsOff() {
        List<String> log = new ArrayList<>();
        CommandStack stack = new CommandStack(1);
        stack.execute(append(log, "a"));
        stack.undo();
        CommandStack.SavePoint empty = stack.savePoint();
        stack.execute(append(log, "b"));
        stack.execute(append(log, "c"));                   // b falls off: the empty state cannot come back
        stack.markSaved(empty);
        assertTrue(stack.isModified());
        stack.undo();
        assertTrue(stack.isModified(), "the empty stack now is not the saved state");

        CommandStack fresh = new CommandStack(1);
        CommandStack.SavePoint start = fresh.savePoint();
        fresh.execute(append(log, "d"));
        fresh.markSaved(start);
        assertTrue(fresh.isModified());
        fresh.undo();
        assertFalse(fresh.isModified(), "nothing fell off: undoing to the start is the saved state");
    }

    @Test
    void aCommandThatThrowsIsNotPushed() {
        CommandStack stack = new CommandStack();
        FabricCommand failing = new FabricCommand() {
            public String description() {
                return "fail";
            }

            public void execute() {
                throw new IllegalArgumentException("refused");
            }

            public void undo() {
            }
        };
        assertThrows(IllegalArgumentException.class, () -> stack.execute(failing));
        assertFalse(stack.canUndo());
        assertNull(stack.undoDescription());
        assertFalse(stack.isModified());
    }

    @Test
    void theOldestCommandsFallOffBeyondTheLimitAndTheDocumentStaysModified() {
        List<String> log = new ArrayList<>();
        CommandStack stack = new CommandStack(2);
        stack.execute(append(log, "a"));
        stack.execute(append(log, "b"));
        stack.execute(append(log, "c"));
        assertEquals(2, stack.undoDepth());
        stack.undo();
        stack.undo();
        assertFalse(stack.undo(), "a fell off the bottom");
        assertEquals(List.of("a"), log);
        assertTrue(stack.isModified(), "the empty saved state cannot be reached any more");
    }

    @Test
    void listenersHearEveryChange() {
        CommandStack stack = new CommandStack();
        int[] heard = {0};
        int[] heardSaved = {0};
        stack.addListener(() -> heard[0]++);
        stack.addSavedStateListener(() -> heardSaved[0]++);
        stack.execute(append(new ArrayList<>(), "a"));
        stack.undo();
        long revision = stack.revision();
        stack.markSaved();
        stack.markSaved(stack.savePoint());
        // A save changes whether the fabric counts as modified, not the fabric: the views that draw
        // or check the fabric (model listeners) do not hear it, and the revision stays.
        assertEquals(2, heard[0]);
        assertEquals(4, heardSaved[0]);
        assertEquals(revision, stack.revision());
        stack.clear();
        assertEquals(3, heard[0]);
        assertEquals(5, heardSaved[0]);
    }
}
