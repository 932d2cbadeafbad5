package io.fabriclab.ui;

import javafx.application.Platform;
import javafx.geometry.Rectangle2D;
import javafx.scene.control.Dialog;
import javafx.scene.layout.Region;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;

/**
 * Every dialog and tool window at its content's size and centred on its owner (issue 35 item 6).
 * Under a window manager (Openbox) a JavaFX dialog could open at a size that showed one of five
 * lines (813x178), at the screen's top left without a title bar, or with a list squeezed to zero
 * height: the size is asked again once the window is shown and once more after the window manager
 * has framed it, never below what the content needs, and the position is taken from the owner.
 */
public final class DialogFit {
    private DialogFit() {
    }

    /** Sizes {@code d} to its content (never smaller) and centres it on its owner when it shows. */
    public static <T> Dialog<T> fit(Dialog<T> d) {
        d.getDialogPane().setMinHeight(Region.USE_PREF_SIZE);
        d.getDialogPane().setMinWidth(Region.USE_PREF_SIZE);
        d.setResizable(true);
        Window w = d.getDialogPane().getScene().getWindow();
        w.addEventHandler(WindowEvent.WINDOW_SHOWN, e -> settle(w, d.getOwner()));
        return d;
    }

    /** Sizes a tool window (a Stage) to its scene and centres it on {@code owner} when it shows. */
    public static Stage fit(Stage s, Window owner) {
        s.addEventHandler(WindowEvent.WINDOW_SHOWN, e -> settle(s, owner));
        return s;
    }

    /** Sizes and centres now, and again after the window manager's first round trip. */
    static void settle(Window w, Window owner) {
        place(w, owner);
        Platform.runLater(() -> Platform.runLater(() -> place(w, owner)));
    }

    private static void place(Window w, Window owner) {
        if (!w.isShowing()) {
            return;
        }
        if (w instanceof Stage s) {
            double pw = s.getScene() == null || s.getScene().getRoot() == null ? 0
                    : s.getScene().getRoot().prefWidth(-1);
            double ph = s.getScene() == null || s.getScene().getRoot() == null ? 0
                    : s.getScene().getRoot().prefHeight(pw);
            // Grow to the content (a window that came up smaller); a larger one the user made stays.
            if (s.getScene() != null && (s.getScene().getWidth() < pw - 1 || s.getScene().getHeight() < ph - 1)) {
                s.sizeToScene();
            }
        }
        centre(w, owner);
    }

    /** Centres {@code w} on {@code owner} (or its screen), kept inside the owner's screen. */
    static void centre(Window w, Window owner) {
        if (owner == null || !owner.isShowing()) {
            w.centerOnScreen();
            return;
        }
        double x = owner.getX() + (owner.getWidth() - w.getWidth()) / 2;
        double y = owner.getY() + (owner.getHeight() - w.getHeight()) / 2;
        Rectangle2D screen = Screen.getScreensForRectangle(owner.getX(), owner.getY(), owner.getWidth(),
                owner.getHeight()).stream().findFirst().orElse(Screen.getPrimary()).getVisualBounds();
        x = Math.max(screen.getMinX(), Math.min(x, screen.getMaxX() - w.getWidth()));
        y = Math.max(screen.getMinY(), Math.min(y, screen.getMaxY() - w.getHeight()));
        w.setX(x);
        w.setY(y);
    }

    /** A read-only monospace text sized to {@code text}: its lines up to {@code maxRows}, its widest line up to {@code maxColumns}. */
    public static javafx.scene.control.TextArea text(String text, int maxColumns, int maxRows) {
        javafx.scene.control.TextArea area = new javafx.scene.control.TextArea(text);
        area.setEditable(false);
        area.setWrapText(false);
        String[] lines = text.split("\n", -1);
        int widest = 0;
        for (String l : lines) {
            widest = Math.max(widest, l.length());
        }
        area.setPrefColumnCount(Math.max(30, Math.min(maxColumns, widest + 2)));
        area.setPrefRowCount(Math.max(3, Math.min(maxRows, lines.length + 1)));
        area.setStyle("-fx-font-family: monospace;");
        return area;
    }
}
