package io.fabriclab.app;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * What the command line needs from the desktop application: the editor behind {@code fabriclab gui}.
 * (The benchmarks that need JavaFX are not in the shipped jar: {@code tools/bench-ui.sh}.) It lives
 * below both: {@code cli} must not depend on {@code ui}, nor {@code ui} on {@code cli}
 * (ArchitectureTest's layers), so {@code ui} implements this and registers it in
 * {@code META-INF/services/io.fabriclab.app.Desktop}; the CLI finds it with {@link ServiceLoader}.
 * A build without the editor has no provider.
 */
public interface Desktop {

    /** The provider on the class path, if the editor is part of this build. */
    static Optional<Desktop> find() {
        return ServiceLoader.load(Desktop.class, Desktop.class.getClassLoader()).findFirst();
    }

    /**
     * Opens the editor (on the file in {@code args}, else on the shipped example) and returns when
     * its last window closes.
     *
     * @throws NoDisplayException when there is no display to open a window on
     */
    void openEditor(String[] args) throws Exception;

    /** No display to open a window on (no DISPLAY, or it cannot be opened): the user's setup, exit 2. */
    final class NoDisplayException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public NoDisplayException(String detail, Throwable cause) {
            super("no display to open the editor on (" + detail + "). The editor needs a graphical desktop;"
                    + " without one, start it on a virtual screen: xvfb-run ./fabriclab gui"
                    + " (Debian: apt-get install xvfb). The other commands (fabriclab --help) need no display.", cause);
        }
    }
}
