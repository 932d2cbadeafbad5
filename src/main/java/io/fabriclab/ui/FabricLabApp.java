package io.fabriclab.ui;

import io.fabriclab.model.Fabric;
import javafx.application.Application;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

/** The desktop application: one editor window on a fabric (the demo fabric until files open). */
public final class FabricLabApp extends Application {
    private static volatile Fabric initialFabric;
    private static volatile java.nio.file.Path initialFile;

    /** The fabric the next launch opens; call before {@link Application#launch}. */
    public static void setInitialFabric(Fabric f) {
        setInitialFabric(f, null);
    }

    /** The fabric the next launch opens and the file it came from (Save writes there). */
    public static void setInitialFabric(Fabric f, java.nio.file.Path file) {
        initialFabric = f;
        initialFile = file;
    }

    /** The editor's size on a large screen (tools/wm-check.sh checks the window opens at this size). */
    static final double PREFERRED_WIDTH = 1500;
    static final double PREFERRED_HEIGHT = 920;
    /** Room left on a smaller screen for the window manager's frame (title bar, borders). */
    static final double FRAME_WIDTH = 32;
    static final double FRAME_HEIGHT = 64;

    /** The scene width: the preferred 1500 px, or the screen's usable width less a frame on a smaller screen. */
    static double initialWidth(Rectangle2D visualBounds) {
        return Math.floor(Math.min(PREFERRED_WIDTH, visualBounds.getWidth() - FRAME_WIDTH));
    }

    /** The scene height: the preferred 920 px, or the screen's usable height less a frame. */
    static double initialHeight(Rectangle2D visualBounds) {
        return Math.floor(Math.min(PREFERRED_HEIGHT, visualBounds.getHeight() - FRAME_HEIGHT));
    }

    @Override
    public void start(Stage stage) {
        Fabric f = initialFabric != null ? initialFabric : DemoFabric.classic();
        FabricEditor editor = new FabricEditor(new FabricDocument(f, initialFabric != null ? initialFile : null));
        Scene scene = new Scene(editor, initialWidth(Screen.getPrimary().getVisualBounds()),
                initialHeight(Screen.getPrimary().getVisualBounds()));
        stage.setScene(scene);
        stage.setTitle(editor.windowTitle());
        stage.setOnCloseRequest(e -> {
            // File > Open replaces the editor, so ask the one showing now.
            if (scene.getRoot() instanceof FabricEditor current) {
                java.util.concurrent.CompletableFuture<Boolean> goOn = current.confirmDiscard();
                if (goOn.isDone() && goOn.join()) {
                    current.shutdown();
                    return;
                }
                // Not now: Cancel, or Save still writing in the background; close when it is written.
                e.consume();
                goOn.thenAccept(ok -> {
                    if (ok) {
                        current.shutdown();
                        stage.close();
                    }
                });
            }
        });
        stage.show();
        editor.canvas().requestFocus();
        // After the window shows, so the question has an owner; then autosave starts for this session.
        javafx.application.Platform.runLater(() -> {
            if (scene.getRoot() instanceof FabricEditor current) {
                // Autosaves are read in the background; the question comes when one has been read.
                current.offerRecovery().whenComplete((recovering, ex) -> {
                    current.startAutosave();
                    if (!Boolean.TRUE.equals(recovering)) {
                        HelpWindows.welcomeOnStart(current, initialFile != null); // the shipped example opens without a file
                    }
                });
            }
        });
    }
}
