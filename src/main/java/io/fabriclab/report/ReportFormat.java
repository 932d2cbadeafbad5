package io.fabriclab.report;

import java.nio.file.Path;
import java.util.Locale;

/** The file formats a report is written in, chosen by the output file's ending. */
public enum ReportFormat {
    HTML, PDF;

    /** The format for a file name (.html/.htm or .pdf), or null if the ending is neither. */
    public static ReportFormat of(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".html") || n.endsWith(".htm") || n.endsWith(".xhtml")) {
            return HTML;
        }
        if (n.endsWith(".pdf")) {
            return PDF;
        }
        return null;
    }
}
