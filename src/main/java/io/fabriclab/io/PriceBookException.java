package io.fabriclab.io;

import java.io.IOException;

/**
 * A price book file that cannot be used, with what a user needs to fix it: the file, the JSON path
 * of the bad value, the value as written, and what is allowed there.
 */
public final class PriceBookException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final String jsonPath;
    private final String value;
    private final String allowed;

    public PriceBookException(String file, String jsonPath, String problem, String value, String allowed) {
        super(file + ": " + jsonPath + ": " + problem + (value == null ? "" : "; found " + value)
                + (allowed == null ? "" : "; allowed: " + allowed));
        this.file = file;
        this.jsonPath = jsonPath;
        this.value = value;
        this.allowed = allowed;
    }

    public String file() {
        return file;
    }

    /** Where in the document, e.g. {@code $.prices["nic:400G"]}. */
    public String jsonPath() {
        return jsonPath;
    }

    /** The offending value as written, or null when something is missing. */
    public String value() {
        return value;
    }

    /** What would have been accepted. */
    public String allowed() {
        return allowed;
    }
}
