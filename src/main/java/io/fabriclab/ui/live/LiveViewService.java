package io.fabriclab.ui.live;

import java.io.IOException;
import java.nio.file.Path;

import io.fabriclab.ui.FabricEditor;
import io.fabriclab.ui.LiveViewProvider;
import javafx.scene.control.Menu;

/**
 * The live view as the editor reaches it ({@link LiveViewProvider}, registered in
 * {@code META-INF/services/io.fabriclab.ui.LiveViewProvider}): this package builds on
 * {@code io.fabriclab.ui}, never the other way round.
 */
public final class LiveViewService implements LiveViewProvider {

    @Override
    public Menu menu(FabricEditor editor) {
        return LiveMenu.create(editor);
    }

    @Override
    public Panel panel(FabricEditor editor) {
        LivePanel panel = new LivePanel(editor.canvas());
        // The editor's status bar follows the run: it said "press Play" all through a run.
        panel.model().statusProperty().addListener((o, was, now) -> editor.message("Live view: " + now));
        return panel;
    }

    @Override
    public Path resultsOfSavedRun(Path runFile, Path dir) throws IOException {
        RunRecording.Saved saved = RunRecording.load(runFile);
        if (saved.results() == null || saved.results().isNull()) {
            throw new IOException(runFile + " holds no results (a run saved before it ended)");
        }
        String name = runFile.getFileName().toString();
        if (name.endsWith(RunRecording.EXTENSION)) {
            name = name.substring(0, name.length() - RunRecording.EXTENSION.length());
        }
        Path out = dir.resolve(LivePanel.safeName(name) + "-results.json");
        io.fabriclab.io.AtomicFiles.write(out, io.fabriclab.io.JsonInput.writingMapper().writerWithDefaultPrettyPrinter()
                .writeValueAsBytes(saved.results()));
        return out;
    }

    @Override
    public String savedRunExtension() {
        return RunRecording.EXTENSION;
    }
}
