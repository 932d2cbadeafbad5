package io.fabriclab.io;

/** A scenario that cannot be used: the message names the file, the JSON path, the value and what is allowed. */
public class ScenarioException extends RuntimeException {
    public ScenarioException(String message) {
        super(message);
    }

    public ScenarioException(String message, Throwable cause) {
        super(message, cause);
    }
}
