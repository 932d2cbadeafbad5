package io.fabriclab.ui;

import io.fabriclab.diagram.DiagramStyle;
import io.fabriclab.edit.DeviceTemplate;
import javafx.geometry.Insets;
import javafx.geometry.Point2D;
import javafx.scene.Cursor;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * The device palette: one entry per role. Drag an entry onto the canvas to add a device there
 * (a plain mouse drag, so it also works without platform drag-and-drop), or double-click it to
 * add one in the middle of the view.
 */
public final class PalettePane extends VBox {
    private final FabricCanvas target;
    private final DiagramStyle style = new DiagramStyle();
    private static final String ENTRY_LIGHT = "-fx-background-color: white; -fx-background-radius: 6;"
            + " -fx-border-color: #c3cad3; -fx-border-radius: 6;";
    private static final String ENTRY_DARK = "-fx-background-color: #2a2f36; -fx-background-radius: 6;"
            + " -fx-border-color: #4a5668; -fx-border-radius: 6;";
    private final java.util.List<HBox> entries = new java.util.ArrayList<>();

    public PalettePane(FabricCanvas target) {
        this.target = target;
        setSpacing(4);
        setPadding(new Insets(8));
        setPrefWidth(190);
        setMinWidth(150);
        Label head = new Label("Palette");
        head.setStyle("-fx-font-weight: bold;");
        Label hint = new Label("drag onto the canvas");
        hint.setStyle("-fx-text-fill: #52606d; -fx-font-size: 11px;");
        getChildren().addAll(head, hint);
        for (DeviceTemplate t : DeviceTemplate.defaults()) {
            getChildren().add(entry(t));
        }
        setStyle("-fx-background-color: #eef1f5;");
    }

    private HBox entry(DeviceTemplate t) {
        Canvas swatch = new Canvas(34, 18);
        GraphicsContext gc = swatch.getGraphicsContext2D();
        gc.setFill(FxPainter.fx(style.fill(t.role())));
        gc.fillRoundRect(1, 1, 32, 16, 8, 8);
        Label name = new Label(t.title());
        name.setWrapText(true);
        HBox box = new HBox(8, swatch, name);
        box.setId("palette-" + t.role().jsonName());
        box.setPadding(new Insets(6));
        box.setStyle(ENTRY_LIGHT);
        entries.add(box);
        box.setCursor(Cursor.OPEN_HAND);
        Tooltip.install(box, new Tooltip(t.title() + "\nDrag onto the canvas, or double-click to add it in free space near the middle"));
        box.addEventHandler(MouseEvent.MOUSE_DRAGGED, e -> {
            Point2D p = canvasPoint(e);
            target.previewDrop(inside(p) ? t : null, p.getX(), p.getY());
        });
        box.addEventHandler(MouseEvent.MOUSE_RELEASED, e -> {
            Point2D p = canvasPoint(e);
            target.previewDrop(null, 0, 0);
            if (e.getButton() == MouseButton.PRIMARY && inside(p)) {
                target.addDeviceAt(t, p.getX(), p.getY());
                target.requestFocus();
            }
        });
        box.addEventHandler(MouseEvent.MOUSE_CLICKED, e -> {
            if (e.getClickCount() == 2) {
                target.addDeviceInFreeSpace(t);
            }
        });
        return box;
    }

    /** Colours for the dark theme (the entries' own styles would stay white otherwise). */
    public void setDark(boolean dark) {
        setStyle(dark ? "-fx-background-color: #23272e;" : "-fx-background-color: #eef1f5;");
        for (HBox b : entries) {
            b.setStyle(dark ? ENTRY_DARK : ENTRY_LIGHT);
        }
    }

    private Point2D canvasPoint(MouseEvent e) {
        return target.sceneToLocal(e.getSceneX(), e.getSceneY());
    }

    private boolean inside(Point2D p) {
        return p != null && p.getX() >= 0 && p.getY() >= 0 && p.getX() < target.getWidth() && p.getY() < target.getHeight();
    }
}
