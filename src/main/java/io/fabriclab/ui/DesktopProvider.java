package io.fabriclab.ui;

import java.util.Locale;

import io.fabriclab.app.Desktop;

/**
 * The desktop side of the command line ({@code fabriclab gui}), registered in {@code META-INF/services/io.fabriclab.app.Desktop}.
 */
public final class DesktopProvider implements Desktop {

    @Override
    public void openEditor(String[] args) throws Exception {
        String why = missingDisplay(System.getenv("DISPLAY"), System.getProperty("os.name", ""),
                System.getProperty("glass.platform"));
        if (why != null) {
            throw new NoDisplayException(why, null);
        }
        try {
            Launcher.main(args);
        } catch (UnsupportedOperationException e) {
            // GTK could not open the display it was given (JavaFX: "Unable to open DISPLAY").
            if (e.getMessage() != null && e.getMessage().contains("DISPLAY")) {
                throw new NoDisplayException("cannot open DISPLAY=" + System.getenv("DISPLAY"), e);
            }
            throw e;
        }
    }

    /**
     * Why no window can open, or null when one may: on Linux and other X11 systems JavaFX's GTK
     * backend needs an X display in DISPLAY (XWayland provides one under Wayland); Windows and
     * macOS always have a desktop; a headless glass platform (Monocle) needs none.
     */
    static String missingDisplay(String display, String osName, String glassPlatform) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows") || os.startsWith("mac") || "Monocle".equalsIgnoreCase(glassPlatform)) {
            return null;
        }
        return display == null || display.isBlank() ? "DISPLAY is not set" : null;
    }
}
