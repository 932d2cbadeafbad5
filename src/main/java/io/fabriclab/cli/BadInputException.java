package io.fabriclab.cli;

/** Bad input detected by a command itself (exit code 2, message printed without a stack trace). */
public class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
