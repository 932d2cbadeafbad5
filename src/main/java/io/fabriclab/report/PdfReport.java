package io.fabriclab.report;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;

import com.openhtmltopdf.outputdevice.helper.BaseRendererBuilder;
import com.openhtmltopdf.outputdevice.helper.ExternalResourceControlPriority;
import com.openhtmltopdf.pdfboxout.PdfRendererBuilder;
import com.openhtmltopdf.svgsupport.BatikSVGDrawer;

import io.fabriclab.model.Version;

/**
 * The report as PDF: the very XHTML of {@link HtmlReport}, laid out on A4 pages by openhtmltopdf
 * (CSS 2.1 + paged media over PDFBox 3) with the inline SVG drawn as vectors by Batik. Text stays
 * text (selectable, searchable, extractable); no resource is ever fetched: every external resource
 * request is refused and SVG scripts are off.
 */
public final class PdfReport {
    /** DejaVu (Debian's fonts-dejavu-core, a dependency of the JDK's font support) covers far more than Latin-1. */
    private static final String[] FONT_DIRS = {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
        "/usr/share/fonts/TTF", "/Library/Fonts", "C:\\Windows\\Fonts"};

    private record FontFile(String file, String family, int weight) {
    }

    private static final List<FontFile> FONTS = List.of(new FontFile("DejaVuSans.ttf", "DejaVu Sans", 400),
            new FontFile("DejaVuSans-Bold.ttf", "DejaVu Sans", 700), new FontFile("DejaVuSansMono.ttf", "DejaVu Sans Mono", 400));

    /** Held so the level sticks (java.util.logging keeps loggers weakly). */
    private static final java.util.logging.Logger PDFBOX_LOG = java.util.logging.Logger.getLogger("org.apache.pdfbox");

    static {
        // openhtmltopdf logs every font load at INFO, PDFBox warns that the unused built-in Symbol font
        // has a stand-in: a report writer has nothing to say unless it fails.
        com.openhtmltopdf.util.XRLog.setLoggingEnabled(false);
        PDFBOX_LOG.setLevel(java.util.logging.Level.SEVERE);
    }

    private PdfReport() {
    }

    /** Renders the report's XHTML to PDF bytes. */
    public static byte[] render(String xhtml) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
        PdfRendererBuilder b = new PdfRendererBuilder();
        b.useFastMode();
        b.withHtmlContent(xhtml, null);
        b.withProducer("FabricLab " + Version.get());
        b.useSVGDrawer(new BatikSVGDrawer(BatikSVGDrawer.SvgScriptMode.SECURE, BatikSVGDrawer.SvgExternalResourceMode.SECURE));
        // A report is self-contained: refuse every resource request (images, fonts, style sheets by URL).
        b.useExternalResourceAccessControl((uri, type) -> false, ExternalResourceControlPriority.RUN_BEFORE_RESOLVING_URI);
        b.useExternalResourceAccessControl((uri, type) -> false, ExternalResourceControlPriority.RUN_AFTER_RESOLVING_URI);
        for (FontFile f : FONTS) {
            File file = find(f.file());
            if (file != null) {
                b.useFont(file, f.family(), f.weight(), BaseRendererBuilder.FontStyle.NORMAL, true,
                        EnumSet.of(BaseRendererBuilder.FSFontUseCase.DOCUMENT, BaseRendererBuilder.FSFontUseCase.SVG));
            }
        }
        b.toStream(out);
        b.run();
        return out.toByteArray();
    }

    private static File find(String name) {
        for (String dir : FONT_DIRS) {
            File f = new File(dir, name);
            if (f.isFile()) {
                return f;
            }
        }
        return null;
    }
}
