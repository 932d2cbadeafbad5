package io.fabriclab.ui;

import io.fabriclab.model.Fabric;
import javafx.application.Application;
import javafx.scene.Scene;
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

    @Override
    public void start(Stage stage) {
        Fabric f = initialFabric != null ? initialFabric : DemoFabric.classic();
        FabricEditor editor = new FabricEditor(new FabricDocument(f, initialFabric != null ? initialFile : null));
        Scene scene = new Scene(editor, 1500, 920);
        stage.setScene(scene);
        stage.setTitle(editor.windowTitle());
        stage.setOnCloseRequest(e -> {
            // File > Open replaces the editor, so ask the one showing now.
            if (scene.getRoot() instanceof FabricEditor current) {
                if (current.confirmDiscard()) {
                    current.shutdown();
                } else {
                    e.consume();
                }
            }
        });
        stage.show();
        editor.canvas().requestFocus();
        // After the window shows, so the question has an owner; then autosave starts for this session.
        javafx.application.Platform.runLater(() -> {
            if (scene.getRoot() instanceof FabricEditor current) {
                current.offerRecovery();
                current.startAutosave();
            }
        });
    }
}
