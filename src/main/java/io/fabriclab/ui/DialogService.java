package io.fabriclab.ui;

import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.stage.Window;

/** Every question the editor asks goes through here, so tests can answer instead of a person (JabRef's pattern). */
public interface DialogService {

    /** Asks a yes/no question; true means go on. */
    boolean confirm(String header, String text);

    /** Modal JavaFX alerts over the given window. */
    static DialogService fx(java.util.function.Supplier<Window> owner) {
        return (header, text) -> {
            Alert a = new Alert(Alert.AlertType.CONFIRMATION, text, ButtonType.CANCEL, ButtonType.OK);
            a.setHeaderText(header);
            a.initOwner(owner.get());
            return a.showAndWait().filter(b -> b == ButtonType.OK).isPresent();
        };
    }
}
