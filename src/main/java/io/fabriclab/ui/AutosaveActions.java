package io.fabriclab.ui;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

import io.fabriclab.model.Fabric;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.util.Duration;

/** Autosave to a recovery file while there are unsaved changes, and the offer to restore one after a crash. */
final class AutosaveActions {
    private final FabricEditor editor;
    private final FabricDocument doc;
    private final FabricCanvas canvas;
    private final BackgroundTasks tasks = BackgroundTasks.shared();
    private AutosaveRecovery recovery = AutosaveRecovery.forThisProcess();
    private Timeline autosave;
    private long autosavedRevision = -1;

    AutosaveActions(FabricEditor editor) {
        this.editor = editor;
        this.doc = editor.document();
        this.canvas = editor.canvas();
    }

    /** Writes the recovery file every {@link AutosaveRecovery#intervalSeconds()} while there are unsaved changes. */
    void start() {
        stop();
        autosave = new Timeline(new KeyFrame(Duration.seconds(AutosaveRecovery.intervalSeconds()), e -> now()));
        autosave.setCycleCount(Timeline.INDEFINITE);
        autosave.play();
    }

    void stop() {
        if (autosave != null) {
            autosave.stop();
            autosave = null;
        }
    }

    /**
     * One autosave: with unsaved changes a copy of the fabric is taken here (the FX thread owns it)
     * and serialised and written by the background executor; without, the recovery file goes.
     */
    CompletableFuture<Path> now() {
        if (!doc.stack().isModified()) {
            recovery.discard();
            autosavedRevision = doc.stack().revision();
            return CompletableFuture.completedFuture(null);
        }
        if (autosavedRevision == doc.stack().revision()) {
            return CompletableFuture.completedFuture(null);
        }
        autosavedRevision = doc.stack().revision();
        Fabric copy = doc.fabric().copy();
        Path original = doc.file();
        AutosaveRecovery r = recovery;
        return tasks.run("Autosaving", () -> {
            r.write(copy, original);
            return original;
        }, done -> { }, ex -> editor.message("Autosave failed: " + ex.getMessage()));
    }

    /** Stops autosaving and removes the recovery file: the window closes with nothing unsaved to keep. */
    void shutdown() {
        stop();
        recovery.discard();
    }

    /** After a crash: offers the autosave of each FabricLab session that is gone (RecoveryOffer). */
    CompletableFuture<Boolean> offerRecovery() {
        return recoveryOffer().offer();
    }

    /** File > Recover Autosaves: the declined recoveries kept for a while, to open one. */
    void chooseDeclined() {
        recoveryOffer().chooseDeclined();
    }

    private RecoveryOffer recoveryOffer() {
        return new RecoveryOffer(doc, editor.dialogs(), recovery, editor::message);
    }

    boolean isRunning() {
        return autosave != null;
    }

    AutosaveRecovery recovery() {
        return recovery;
    }

    /** Where autosave writes (tests use a scratch directory). */
    void setRecovery(AutosaveRecovery r) {
        recovery = r;
    }

}
