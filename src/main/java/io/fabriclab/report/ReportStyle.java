package io.fabriclab.report;

/**
 * The report's style sheet, inline in every report (nothing is fetched). CSS 2.1 plus paged media,
 * because the PDF renderer lays out CSS 2.1: tables rather than flexbox. The same sheet prints well
 * from a browser: A4 pages, one section per page, table headers repeated, rows never split.
 */
final class ReportStyle {
    private ReportStyle() {
    }

    static final String CSS = """
            @page { size: A4; margin: 16mm 14mm 18mm 14mm;
              @bottom-left { content: "FabricLab design review"; font: 8pt "DejaVu Sans", sans-serif; color: #777; }
              @bottom-right { content: "page " counter(page) " of " counter(pages); font: 8pt "DejaVu Sans", sans-serif; color: #777; } }
            html { background: #fff; }
            body { font-family: "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif; font-size: 9pt;
              color: #1d2329; line-height: 1.35; margin: 0 auto; max-width: 190mm; }
            h1 { font-size: 24pt; margin: 4mm 0 2mm 0; color: #0b3d62; word-wrap: break-word; }
            h2 { font-size: 15pt; color: #0b3d62; border-bottom: 1.5pt solid #0b3d62; padding-bottom: 1mm; margin: 0 0 3mm 0; }
            h3 { font-size: 11pt; color: #0b3d62; margin: 4mm 0 1.5mm 0; page-break-after: avoid; }
            h4 { font-size: 9.5pt; margin: 3mm 0 1mm 0; page-break-after: avoid; }
            p { margin: 1mm 0 2mm 0; }
            .section { page-break-before: always; padding-top: 2mm; }
            .cover { padding-top: 30mm; }
            .kicker { font-size: 11pt; letter-spacing: 0.5pt; color: #55606b; text-transform: uppercase; margin: 0; }
            .subtitle { font-size: 11pt; color: #3a4650; }
            .badge { display: inline-block; font-size: 12pt; font-weight: bold; padding: 2mm 4mm; margin: 5mm 0;
              border-radius: 2mm; }
            .badge.pass { background: #e3f4e6; color: #1b6e2a; border: 1pt solid #1b6e2a; }
            .badge.warn, .badge.not_simulated { background: #fff4d6; color: #7a5600; border: 1pt solid #b07d00; }
            .badge.fail { background: #fde4e1; color: #a31b0d; border: 1pt solid #a31b0d; }
            table.data { border-collapse: collapse; width: 100%; margin: 1mm 0 3mm 0; -fs-table-paginate: paginate; }
            table.data th { background: #e8eef3; color: #0b3d62; font-weight: bold; text-align: left;
              border-bottom: 1pt solid #9fb3c4; padding: 1.2mm 1.5mm; font-size: 8pt; }
            table.data td { border-bottom: 0.5pt solid #d8dee4; padding: 1mm 1.5mm; vertical-align: top;
              word-wrap: break-word; font-size: 8.2pt; }
            table.data th.num, table.data td.num { text-align: right; }
            thead { display: table-header-group; }
            tr { page-break-inside: avoid; }
            table.narrow { width: 60%; }
            table.narrow-first td.txt:first-child { width: 28%; color: #3a4650; }
            table.cover-table { width: 100%; margin-top: 6mm; }
            table.cover-table thead { display: none; }
            table.cover-table td { font-size: 10pt; padding: 1.6mm 2mm; }
            table.cover-table td:first-child { width: 32%; color: #55606b; }
            td.status { font-weight: bold; }
            table.checks th:first-child { width: 13%; } table.checks th:nth-child(2) { width: 30%; }
            table.checks th:nth-child(3) { width: 11%; }
            table.checklist th:first-child { width: 3%; } table.checklist th:nth-child(2) { width: 14%; }
            table.checklist th:nth-child(3) { width: 22%; } table.checklist th:nth-child(4) { width: 11%; }
            table.findings th:first-child { width: 9%; } table.findings th:nth-child(2) { width: 15%; }
            table.findings th:nth-child(3) { width: 14%; } table.findings th:nth-child(6) { width: 10%; }
            table.data td.status { white-space: nowrap; }
            table.sweep td { white-space: nowrap; }
            .status.pass { color: #1b6e2a; }
            .status.warn { color: #8a6100; }
            .status.fail { color: #b3261e; }
            .status.not_simulated { color: #6b5b00; font-style: italic; }
            td.status.pass { background: #eef8f0; }
            td.status.warn { background: #fff8e5; }
            td.status.fail { background: #fdecea; }
            td.status.not_simulated { background: #f6f3e2; }
            table.tally { width: 100%; border-collapse: separate; border-spacing: 2mm 0; margin: 2mm 0 4mm 0; }
            td.tally-cell { text-align: center; padding: 2mm; border-radius: 1.5mm; width: 25%; }
            td.tally-cell.pass { background: #e3f4e6; color: #1b6e2a; }
            td.tally-cell.warn { background: #fff4d6; color: #7a5600; }
            td.tally-cell.fail { background: #fde4e1; color: #a31b0d; }
            td.tally-cell.not_simulated { background: #f3f1e6; color: #6b5b00; }
            .tally-n { font-size: 20pt; font-weight: bold; }
            .tally-what { font-size: 8.5pt; }
            .figure { margin: 2mm 0 3mm 0; page-break-inside: avoid; text-align: center; }
            .figure svg { max-width: 100%; height: auto; }
            .caption { font-size: 8pt; color: #55606b; text-align: center; }
            .note { color: #4a5560; font-size: 8.5pt; }
            .run { margin-bottom: 4mm; }
            .run h3 { border-top: 0.75pt solid #9fb3c4; padding-top: 2mm; }
            pre.params { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 7pt; background: #f4f6f8;
              border: 0.5pt solid #d8dee4; padding: 2mm; white-space: pre-wrap; word-wrap: break-word; }
            @media screen { body { padding: 8mm; } .section { border-top: 1px solid #ccd5dd; margin-top: 10mm; } }
            """;
}
