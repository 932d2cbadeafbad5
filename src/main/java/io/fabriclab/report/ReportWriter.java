package io.fabriclab.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.fabriclab.io.AtomicFiles;

/**
 * Builds a review and writes it as HTML or PDF (by the file's ending), atomically: a failed export
 * never leaves half a report behind. The same service serves `fabriclab report` and File > Export
 * Report.
 */
public final class ReportWriter {
    private ReportWriter() {
    }

    /** Writes the report; returns the review so callers can tell the verdict. */
    public static DesignReview write(ReportInput input, Path out, DesignReview.Progress progress) throws IOException {
        ReportFormat format = ReportFormat.of(out);
        if (format == null) {
            throw new IllegalArgumentException(out + ": a report file must end in .html or .pdf");
        }
        DesignReview review = DesignReview.build(input, progress);
        byte[] bytes = render(review, format, progress);
        progress.update(0.97, "writing " + out.getFileName());
        AtomicFiles.write(out, bytes);
        progress.update(1.0, "done");
        return review;
    }

    public static byte[] render(DesignReview review, ReportFormat format, DesignReview.Progress progress) throws IOException {
        String html = HtmlReport.render(review, progress);
        if (format == ReportFormat.HTML) {
            return html.getBytes(StandardCharsets.UTF_8);
        }
        progress.update(0.85, "laying out PDF pages");
        return PdfReport.render(html);
    }
}
