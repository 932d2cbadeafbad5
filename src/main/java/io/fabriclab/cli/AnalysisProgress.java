package io.fabriclab.cli;

import java.io.PrintWriter;
import java.util.Locale;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.FabricAnalysis;

/**
 * Where a long {@code analyze} is, on stderr: the static analysis's phases, then the InfiniBand
 * credit-loop check of each subnet-manager engine. On a terminal one line updates in place (and is
 * cleared at the end); piped, a line per step, and only for a fabric of at least
 * {@link #LARGE_NICS} NICs, where the analysis takes seconds to minutes (a 65,536-host fat tree:
 * docs/performance.md), so small runs and their tests print nothing.
 */
final class AnalysisProgress {
    /** NICs from which a piped analyze says where it is: a fabric of 4,096 GPUs analyses in about a second. */
    static final int LARGE_NICS = 4096;
    /**
     * File size from which a piped analyze says it is reading: 8 MB is a fabric of about 10,000
     * NICs (a k=32 fat tree's file is 7.3 MB, a k=64 one's 58 MB and seconds to read).
     */
    static final long LARGE_FILE_BYTES = 8_000_000;

    /**
     * Says on {@code err} that {@code file} is being read, before anything is known of the fabric in
     * it, for a file of {@link #LARGE_FILE_BYTES} or more (a line of its own, terminal or not, so
     * that an error reading it starts on a line of its own too).
     */
    static void reading(PrintWriter err, java.nio.file.Path file) {
        long size;
        try {
            size = java.nio.file.Files.size(file);
        } catch (java.io.IOException | SecurityException e) {
            return;
        }
        String line = readingLine(file, size);
        if (line != null) {
            err.println(line);
            err.flush();
        }
    }

    /** The reading line for a file of {@code size} bytes, or null below {@link #LARGE_FILE_BYTES}. */
    static String readingLine(java.nio.file.Path file, long size) {
        if (size < LARGE_FILE_BYTES) {
            return null;
        }
        String name = io.fabriclab.io.TerminalText.escape(String.valueOf(file.getFileName()));
        return String.format(Locale.ROOT, "analyze: reading %s (%.0f MB)", name, size / 1e6);
    }

    private final PrintWriter err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private boolean drawn;

    AnalysisProgress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** The progress of an analysis of {@code fabric}; silent when piped and the fabric is small. */
    static AnalysisProgress of(PrintWriter err, Fabric fabric) {
        boolean terminal = System.console() != null && System.console().isTerminal();
        boolean large = FabricAnalysis.Counts.of(fabric).nics() >= LARGE_NICS;
        return terminal || large ? new AnalysisProgress(err, terminal) : new AnalysisProgress(null, false);
    }

    /** The listener for step group {@code group} (0: the static analysis, 1: the credit loops). */
    FabricAnalysis.Progress steps(int group) {
        if (err == null) {
            return FabricAnalysis.Progress.NONE;
        }
        String what = group == 0 ? "analysis" : "InfiniBand credit loops";
        return new FabricAnalysis.Progress() {
            private String line = "";

            @Override
            public void phase(String phase, int index, int count) {
                line = String.format(Locale.ROOT, "analyze: %s %d/%d: %s", what, index + 1, count, phase);
                show(line + String.format(Locale.ROOT, " (%.0f s)", seconds()));
            }

            @Override
            public void within(double fraction) {
                // Only a terminal's line is redrawn; piped, a line per phase is enough.
                if (terminal) {
                    show(line + String.format(Locale.ROOT, " %3.0f %% (%.0f s)", 100 * fraction, seconds()));
                }
            }
        };
    }

    private double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }

    private void show(String line) {
        if (terminal) {
            err.print("\r" + line + "      ");
            drawn = true;
        } else {
            err.println(line);
        }
        err.flush();
    }

    /** Clears the terminal line, so the report starts on a clean screen line. */
    void done() {
        if (drawn) {
            err.print("\r" + " ".repeat(100) + "\r");
            err.flush();
        }
    }
}
