package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** When `fabriclab gui` refuses before starting JavaFX (no display), and when it lets JavaFX try. */
class DesktopProviderTest {

    @Test
    void linuxWithoutDisplayHasNone() {
        assertEquals("DISPLAY is not set", DesktopProvider.missingDisplay(null, "Linux", null));
        assertEquals("DISPLAY is not set", DesktopProvider.missingDisplay(" ", "Linux", null));
    }

    @Test
    void aDisplayOrADesktopOsOrMonocleMayOpen() {
        // A set DISPLAY that cannot be opened is found by JavaFX itself ("Unable to open DISPLAY").
        assertNull(DesktopProvider.missingDisplay(":0", "Linux", null));
        assertNull(DesktopProvider.missingDisplay(null, "Windows 11", null));
        assertNull(DesktopProvider.missingDisplay(null, "Mac OS X", null));
        assertNull(DesktopProvider.missingDisplay(null, "Linux", "Monocle"));
    }
}
