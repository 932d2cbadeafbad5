package io.fabriclab.diagram;

/** Where a text's reference point sits horizontally; vertically the point is the text's middle. */
public enum TextAnchor {
    START,
    MIDDLE,
    END
}
