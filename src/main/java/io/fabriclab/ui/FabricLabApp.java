package io.fabriclab.ui;

import io.fabriclab.model.Fabric;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** The desktop application: one editor window on a fabric (the demo fabric until files open). */
public final class FabricLabApp extends Application {
    private static volatile Fabric initialFabric;
    private static volatile String requestedFile;

    /** The fabric the next launch opens; call before {@link Application#launch}. */
    public static void setInitialFabric(Fabric f) {
        initialFabric = f;
    }

    /** A file named on the command line; opened once the file formats are in this build. */
    static void setRequestedFile(String file) {
        requestedFile = file;
    }

    @Override
    public void start(Stage stage) {
        Fabric f = initialFabric != null ? initialFabric : DemoFabric.classic();
        FabricEditor editor = new FabricEditor(new FabricDocument(f, null));
        Scene scene = new Scene(editor, 1500, 920);
        stage.setScene(scene);
        stage.setTitle(editor.windowTitle());
        stage.setOnCloseRequest(e -> {
            if (!editor.confirmDiscard()) {
                e.consume();
            }
        });
        stage.show();
        if (requestedFile != null) {
            editor.statusBar().setText("Opening files is not in this build yet; showing " + f.name()
                    + " instead of " + requestedFile);
        }
        editor.canvas().requestFocus();
    }
}
