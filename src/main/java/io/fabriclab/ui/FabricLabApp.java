package io.fabriclab.ui;

import io.fabriclab.model.Fabric;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** The desktop application: one editor window on a fabric (the demo fabric until files open). */
public final class FabricLabApp extends Application {
    private static volatile Fabric initialFabric;

    /** The fabric the next launch opens; call before {@link Application#launch}. */
    public static void setInitialFabric(Fabric f) {
        initialFabric = f;
    }

    @Override
    public void start(Stage stage) {
        Fabric f = initialFabric != null ? initialFabric : DemoFabric.classic();
        FabricEditor editor = new FabricEditor(new FabricDocument(f, null));
        Scene scene = new Scene(editor, 1500, 920);
        stage.setScene(scene);
        stage.setTitle(editor.windowTitle());
        stage.show();
        editor.canvas().requestFocus();
    }
}
