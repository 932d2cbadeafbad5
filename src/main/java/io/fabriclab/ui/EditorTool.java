package io.fabriclab.ui;

/** What a plain left drag on a device does. */
public enum EditorTool {
    /** Select and move; shift-drag from a device draws a link. */
    SELECT,
    /** Drag from one device to another to cable them. */
    LINK
}
