package io.fabriclab.ui;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;

import javafx.scene.Node;
import javafx.scene.control.Menu;

/**
 * The live congestion view as the editor knows it. The view lives in {@code io.fabriclab.ui.live},
 * which builds on this package (the canvas, the document, the executor); the editor reaches it only
 * through this interface, found with {@link ServiceLoader}
 * ({@code META-INF/services/io.fabriclab.ui.LiveViewProvider}), so the two packages do not depend on
 * each other in a cycle (ArchitectureTest). Without a provider on the class path the editor simply
 * has no Simulate menu.
 */
public interface LiveViewProvider {

    /** The provider on the class path, if any (looked up once). */
    static Optional<LiveViewProvider> find() {
        return Holder.PROVIDER;
    }

    /** The editor's Simulate menu (Live View, Open Run, Compare Runs). */
    Menu menu(FabricEditor editor);

    /** Builds the run panel docked beside {@code editor}'s canvas (on the FX thread). */
    Panel panel(FabricEditor editor);

    /**
     * Writes the results of a saved run file ({@code .fabriclab-run.json.gz}, Save run… in the live
     * view) into {@code dir} as a results file the report reads (as {@code fabriclab simulate -o}
     * writes them); returns that file. Off the FX thread: reading a large run takes seconds.
     */
    Path resultsOfSavedRun(Path runFile, Path dir) throws IOException;

    /** The file name ending of a saved run. */
    String savedRunExtension();

    /** The docked run panel. */
    interface Panel {
        /** The panel's node, placed in the editor's centre split. */
        Node node();

        /** Stops its run and animation and lets go of the canvas (the panel closes). */
        void dispose();

        /**
         * Writes the last finished run's results into {@code dir} as a results file for the
         * design-review report, named after the run; empty when no run has finished. Call on the
         * FX thread; the results are small for the runs the live view shows.
         */
        Optional<Path> writeLastRun(Path dir) throws IOException;

        /** What the last finished run was ("8:1 incast on classic-leaf-spine"), empty when none. */
        Optional<String> lastRunName();
    }

    /** Loads the provider lazily, once. */
    final class Holder {
        private static final Optional<LiveViewProvider> PROVIDER =
                ServiceLoader.load(LiveViewProvider.class).findFirst();

        private Holder() {
        }
    }
}
