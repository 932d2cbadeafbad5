package io.fabriclab.ui;

import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.stage.Window;

/** Every question the editor asks goes through here, so tests can answer instead of a person (JabRef's pattern). */
public interface DialogService {

    /** Asks a yes/no question; true means go on. */
    boolean confirm(String header, String text);

    /** The answers to "save your changes first?". */
    enum SaveChoice { SAVE, DISCARD, CANCEL }

    /**
     * Asks whether to save unsaved changes before they would be lost: Save, Don't Save or Cancel.
     * Without its own dialog (a test's service) it is {@link #confirm}: yes discards.
     */
    default SaveChoice askSave(String header, String text) {
        return confirm(header, text) ? SaveChoice.DISCARD : SaveChoice.CANCEL;
    }

    /**
     * Shows a list of problems (a file that failed to load: every collected error with its file,
     * JSON path and what is allowed). Tests that answer questions themselves see it through this call.
     */
    default void showErrors(String header, String details) {
    }

    /** Shows a longer text the user reads and closes (analysis results, a deadlock report). */
    default void showReport(String title, String text) {
    }

    /**
     * Shows a save dialog (the chooser set up by the caller: title, types, initial name); the file
     * chosen, or null. Tests answer it without a native dialog (and may pick the chooser's type).
     */
    default java.io.File saveFile(javafx.stage.FileChooser chooser, Window owner) {
        return chooser.showSaveDialog(owner);
    }

    /** Asks the user to pick one of {@code choices}; the index chosen, or -1 for none. */
    default int choose(String header, String text, java.util.List<String> choices) {
        return -1;
    }

    /** Modal JavaFX alerts over the given window. */
    static DialogService fx(java.util.function.Supplier<Window> owner) {
        return new DialogService() {
            @Override
            public boolean confirm(String header, String text) {
                Alert a = new Alert(Alert.AlertType.CONFIRMATION, text, ButtonType.CANCEL, ButtonType.OK);
                a.setHeaderText(header);
                a.initOwner(owner.get());
                DialogFit.fit(a);
                return a.showAndWait().filter(b -> b == ButtonType.OK).isPresent();
            }

            @Override
            public int choose(String header, String text, java.util.List<String> choices) {
                if (choices.isEmpty()) {
                    return -1;
                }
                javafx.scene.control.ChoiceDialog<String> d = new javafx.scene.control.ChoiceDialog<>(choices.get(0), choices);
                d.setTitle("FabricLab");
                d.setHeaderText(header);
                d.setContentText(text);
                d.initOwner(owner.get());
                DialogFit.fit(d);
                return d.showAndWait().map(choices::indexOf).orElse(-1);
            }

            @Override
            public SaveChoice askSave(String header, String text) {
                ButtonType save = new ButtonType("Save", javafx.scene.control.ButtonBar.ButtonData.YES);
                ButtonType discard = new ButtonType("Don't Save", javafx.scene.control.ButtonBar.ButtonData.NO);
                Alert a = new Alert(Alert.AlertType.CONFIRMATION, text, save, discard, ButtonType.CANCEL);
                a.setHeaderText(header);
                a.initOwner(owner.get());
                DialogFit.fit(a);
                ButtonType b = a.showAndWait().orElse(ButtonType.CANCEL);
                return b == save ? SaveChoice.SAVE : b == discard ? SaveChoice.DISCARD : SaveChoice.CANCEL;
            }

            @Override
            public void showErrors(String header, String details) {
                Alert a = new Alert(Alert.AlertType.ERROR);
                a.setTitle("FabricLab");
                a.setHeaderText(header);
                a.getDialogPane().setContent(DialogFit.text(details, 90, 16));
                a.initOwner(owner.get());
                DialogFit.fit(a);
                a.showAndWait();
            }

            @Override
            public void showReport(String title, String text) {
                reportDialog(title, text, owner.get()).show();
            }
        };
    }

    /**
     * The window of {@link #showReport}: the text at its own size (every line of a five-line result
     * in view, up to 24 rows and 100 columns, then it scrolls), centred on {@code owner}, not modal.
     */
    static Alert reportDialog(String title, String text, Window owner) {
        Alert a = new Alert(Alert.AlertType.INFORMATION);
        a.setTitle(title);
        a.setHeaderText(title);
        a.getDialogPane().setContent(DialogFit.text(text, 100, 24));
        a.initOwner(owner);
        a.initModality(javafx.stage.Modality.NONE);
        DialogFit.fit(a);
        return a;
    }
}
