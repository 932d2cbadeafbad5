package io.fabriclab.cli;

/** Exit codes of every fabriclab command (documented in docs/cli.md). */
public final class ExitCode {
    /** Success; for analyze/validate: no finding at error level. */
    public static final int OK = 0;
    /** The input was read, but analysis found problems at error level. */
    public static final int FINDINGS = 1;
    /** Bad input: unreadable or invalid file, bad option value. Nothing was written. */
    public static final int BAD_INPUT = 2;
    /** An internal error (a bug in FabricLab); the message says how to report it. */
    public static final int INTERNAL = 3;

    private ExitCode() {
    }
}
