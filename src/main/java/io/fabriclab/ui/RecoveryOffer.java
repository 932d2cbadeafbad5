package io.fabriclab.ui;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.fabriclab.model.Fabric;

/**
 * What the editor does with recovery files (see {@link AutosaveRecovery}): at start it offers the
 * autosave of each crashed session; File &gt; Recover Autosaves reopens one the user declined.
 * A restored fabric goes into the document as one undoable step, marked unsaved, with the file it
 * belonged to so Save writes there; its recovery file stays until that save. Nothing unreadable is
 * deleted: it is moved aside and the user is told where. Autosaves are read (JSON parsed, seconds
 * for a 64-unit fabric) on the {@link BackgroundTasks} executor; the questions are asked and the
 * fabric is put in place on the FX thread, so both methods return futures completed there.
 */
final class RecoveryOffer {
    private final FabricDocument doc;
    private final DialogService dialogs;
    private final AutosaveRecovery recovery;
    private final Consumer<String> message;

    RecoveryOffer(FabricDocument doc, DialogService dialogs, AutosaveRecovery recovery, Consumer<String> message) {
        this.doc = doc;
        this.dialogs = dialogs;
        this.recovery = recovery;
        this.message = message;
    }

    /** At start: offers each crashed session's autosave, newest first; true when one was restored. */
    CompletableFuture<Boolean> offer() {
        recovery.purgeDeclined(Duration.ofDays(AutosaveRecovery.KEEP_DECLINED_DAYS));
        return offerEach(new ArrayDeque<>(recovery.orphans()));
    }

    /** Reads the next orphan in the background, then asks about it on the FX thread; on to the next if declined. */
    private CompletableFuture<Boolean> offerEach(Deque<AutosaveRecovery.Orphan> left) {
        AutosaveRecovery.Orphan o = left.poll();
        if (o == null) {
            return CompletableFuture.completedFuture(false);
        }
        return loadOrSetAside(o).thenCompose(f -> {
            if (f == null) {
                return offerEach(left);
            }
            boolean yes = dialogs.confirm("Restore unsaved work?", "FabricLab did not close properly. Restore \""
                    + f.name() + "\" as autosaved at " + o.savedAt()
                    + (o.originalFile() == null ? "" : " (from " + o.originalFile() + ")") + "?\n\nIf not, it is kept for "
                    + AutosaveRecovery.KEEP_DECLINED_DAYS + " days under File > Recover Autosaves.");
            if (yes) {
                return CompletableFuture.completedFuture(restore(o, f));
            }
            try {
                recovery.decline(o);
            } catch (IOException e) {
                message.accept("The declined autosave stays in " + o.json().getParent() + ": " + e.getMessage());
            }
            return offerEach(left);
        });
    }

    /** File &gt; Recover Autosaves: the declined autosaves still kept; the one chosen is restored. */
    CompletableFuture<Boolean> chooseDeclined() {
        List<AutosaveRecovery.Orphan> kept = recovery.declined();
        if (kept.isEmpty()) {
            dialogs.showReport("Recover Autosaves", "No declined autosaves are kept (they stay "
                    + AutosaveRecovery.KEEP_DECLINED_DAYS + " days in " + recovery.dir().resolve(AutosaveRecovery.DECLINED) + ").");
            return CompletableFuture.completedFuture(false);
        }
        List<String> names = new ArrayList<>();
        for (AutosaveRecovery.Orphan o : kept) {
            names.add(o.json().getFileName() + "  declined " + o.savedAt()
                    + (o.originalFile() == null ? "" : "  (from " + o.originalFile() + ")"));
        }
        int i = dialogs.choose("Recover Autosaves", "Declined autosaves, kept for " + AutosaveRecovery.KEEP_DECLINED_DAYS
                + " days. Open one in this window (as one undoable step):", names);
        if (i < 0 || i >= kept.size()) {
            return CompletableFuture.completedFuture(false);
        }
        AutosaveRecovery.Orphan o = kept.get(i);
        return loadOrSetAside(o).thenApply(f -> f != null && restore(o, f));
    }

    /**
     * The orphan's fabric, read in the background; null (on the FX thread) when it cannot be read,
     * after moving it aside and saying where.
     */
    private CompletableFuture<Fabric> loadOrSetAside(AutosaveRecovery.Orphan o) {
        return BackgroundTasks.shared().run("Reading the autosave " + o.json().getFileName(), o::load, f -> { },
                ex -> { }).handle((f, ex) -> {
                    if (ex == null) {
                        return f;
                    }
                    Throwable cause = ex instanceof java.util.concurrent.CompletionException && ex.getCause() != null
                            ? ex.getCause() : ex;
                    String where;
                    try {
                        where = "It was moved to " + recovery.setAside(o) + " and is kept there.";
                    } catch (IOException io) {
                        where = "It stays at " + o.json() + " (" + io.getMessage() + ").";
                    }
                    dialogs.showErrors("An autosaved fabric could not be read", where + "\n\n" + cause.getMessage());
                    message.accept("An autosave could not be read: " + where);
                    return null;
                });
    }

    private boolean restore(AutosaveRecovery.Orphan o, Fabric f) {
        try {
            recovery.adopt(o);
        } catch (IOException e) {
            // Not adopted: it stays where it is and is offered again next start, the safe side.
            message.accept("The autosave stays at " + o.json() + ": " + e.getMessage());
        }
        doc.execute(new ReplaceFabricCommand(doc, "Restore autosaved " + f.name(), f, o.originalFile()));
        message.accept("Restored the autosaved fabric: save it to keep it");
        return true;
    }
}
