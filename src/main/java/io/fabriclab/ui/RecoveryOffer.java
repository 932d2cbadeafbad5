package io.fabriclab.ui;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;

/**
 * What the editor does with recovery files (see {@link AutosaveRecovery}): at start it offers the
 * autosave of each crashed session; File &gt; Recover Autosaves reopens one the user declined.
 * A restored fabric goes into the document as one undoable step, marked unsaved, with the file it
 * belonged to so Save writes there; its recovery file stays until that save. Nothing unreadable is
 * deleted: it is moved aside and the user is told where.
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
    boolean offer() {
        recovery.purgeDeclined(Duration.ofDays(AutosaveRecovery.KEEP_DECLINED_DAYS));
        for (AutosaveRecovery.Orphan o : recovery.orphans()) {
            Fabric f = loadOrSetAside(o);
            if (f == null) {
                continue;
            }
            boolean yes = dialogs.confirm("Restore unsaved work?", "FabricLab did not close properly. Restore \""
                    + f.name() + "\" as autosaved at " + o.savedAt()
                    + (o.originalFile() == null ? "" : " (from " + o.originalFile() + ")") + "?\n\nIf not, it is kept for "
                    + AutosaveRecovery.KEEP_DECLINED_DAYS + " days under File > Recover Autosaves.");
            if (yes) {
                return restore(o, f);
            }
            try {
                recovery.decline(o);
            } catch (IOException e) {
                message.accept("The declined autosave stays in " + o.json().getParent() + ": " + e.getMessage());
            }
        }
        return false;
    }

    /** File &gt; Recover Autosaves: the declined autosaves still kept; the one chosen is restored. */
    boolean chooseDeclined() {
        List<AutosaveRecovery.Orphan> kept = recovery.declined();
        if (kept.isEmpty()) {
            dialogs.showReport("Recover Autosaves", "No declined autosaves are kept (they stay "
                    + AutosaveRecovery.KEEP_DECLINED_DAYS + " days in " + recovery.dir().resolve(AutosaveRecovery.DECLINED) + ").");
            return false;
        }
        List<String> names = new ArrayList<>();
        for (AutosaveRecovery.Orphan o : kept) {
            names.add(o.json().getFileName() + "  declined " + o.savedAt()
                    + (o.originalFile() == null ? "" : "  (from " + o.originalFile() + ")"));
        }
        int i = dialogs.choose("Recover Autosaves", "Declined autosaves, kept for " + AutosaveRecovery.KEEP_DECLINED_DAYS
                + " days. Open one in this window (as one undoable step):", names);
        if (i < 0 || i >= kept.size()) {
            return false;
        }
        AutosaveRecovery.Orphan o = kept.get(i);
        Fabric f = loadOrSetAside(o);
        return f != null && restore(o, f);
    }

    private Fabric loadOrSetAside(AutosaveRecovery.Orphan o) {
        try {
            return o.load();
        } catch (InputException e) {
            String where;
            try {
                where = "It was moved to " + recovery.setAside(o) + " and is kept there.";
            } catch (IOException io) {
                where = "It stays at " + o.json() + " (" + io.getMessage() + ").";
            }
            dialogs.showErrors("An autosaved fabric could not be read", where + "\n\n" + e.getMessage());
            message.accept("An autosave could not be read: " + where);
            return null;
        }
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
