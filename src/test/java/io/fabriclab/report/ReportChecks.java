package io.fabriclab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** What every report must satisfy, checked on the written bytes. */
final class ReportChecks {
    private ReportChecks() {
    }

    /**
     * Parses the HTML as XML (well-formed or it throws) without fetching the DTD, and checks it
     * cannot run or load anything: no script, no event-handler attribute, no element that embeds
     * or links a resource, no attribute or style that points outside the document.
     */
    static Document checkSelfContainedHtml(String html) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        f.setExpandEntityReferences(false);
        DocumentBuilder b = f.newDocumentBuilder();
        Document doc = b.parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
        List<String> problems = new ArrayList<>();
        walk(doc.getDocumentElement(), problems);
        assertTrue(problems.isEmpty(), "not self-contained: " + problems);
        String lower = html.toLowerCase(Locale.ROOT);
        assertFalse(lower.contains("<script"), "no script");
        assertFalse(lower.contains("@import"), "no CSS import");
        assertFalse(lower.matches("(?s).*url\\(\\s*['\"]?(https?:|//|file:).*"), "no external url() in CSS");
        return doc;
    }

    private static void walk(Element e, List<String> problems) {
        String name = e.getLocalName() == null ? e.getTagName() : e.getLocalName();
        String n = name.toLowerCase(Locale.ROOT);
        if (List.of("script", "iframe", "object", "embed", "link", "img", "image", "use", "foreignobject", "audio",
                "video", "source", "base", "form").contains(n)) {
            problems.add("element <" + name + ">");
        }
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Attr a = (Attr) attrs.item(i);
            String an = a.getName().toLowerCase(Locale.ROOT);
            String v = a.getValue().toLowerCase(Locale.ROOT).strip();
            if (an.startsWith("xmlns")) {
                continue; // namespace names identify vocabularies; nothing is fetched from them
            }
            if (an.startsWith("on")) {
                problems.add("event handler " + a.getName() + " on <" + name + ">");
            }
            if ((an.equals("href") || an.endsWith(":href") || an.equals("src") || an.equals("action") || an.equals("data"))
                    && !v.startsWith("#")) {
                problems.add(a.getName() + "=\"" + a.getValue() + "\" on <" + name + ">");
            }
            if (v.contains("://") || v.startsWith("//") || v.contains("javascript:")) {
                problems.add(a.getName() + "=\"" + a.getValue() + "\" on <" + name + ">");
            }
        }
        NodeList kids = e.getChildNodes();
        for (int i = 0; i < kids.getLength(); i++) {
            if (kids.item(i).getNodeType() == Node.ELEMENT_NODE) {
                walk((Element) kids.item(i), problems);
            }
        }
    }

    /** The PDF's text, page by page joined; fails when the file is not a PDF. */
    static String pdfText(byte[] pdf) throws Exception {
        try (PDDocument doc = Loader.loadPDF(pdf)) {
            assertTrue(doc.getNumberOfPages() >= HtmlReport.SECTIONS.size(), "a page per section at least");
            return new PDFTextStripper().getText(doc);
        }
    }

    static int pages(byte[] pdf) throws Exception {
        try (PDDocument doc = Loader.loadPDF(pdf)) {
            return doc.getNumberOfPages();
        }
    }

    /** Every section title is in the text (HTML text content or PDF text). */
    static void checkSections(String text, boolean comparison) {
        String flat = text.replaceAll("\\s+", " ");
        for (String s : HtmlReport.SECTIONS) {
            assertTrue(flat.contains(s), "section \"" + s + "\" present");
        }
        assertEquals(comparison, flat.contains(HtmlReport.COMPARISON), "comparison section iff two or more runs");
    }
}
