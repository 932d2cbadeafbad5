package io.fabriclab.ui;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.topology.Finding;
import io.fabriclab.topology.Lint;
import javafx.animation.PauseTransition;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TitledPane;
import javafx.util.Duration;

/**
 * The fabric's lint findings (topology.Lint), re-checked half a second after the last edit on
 * fabrics of up to {@link #AUTO_CHECK_MAX_ELEMENTS} devices and links, on request (Check) on
 * larger ones. It never shows a result for a fabric it did not check: after an edit that is not
 * re-checked, the list is emptied and says so, rather than keeping findings of another fabric or
 * claiming "no findings". Clicking a finding selects what it is about and shows it. The check
 * runs on the {@link BackgroundTasks} executor over a copy of the fabric taken on the FX thread
 * (which owns the model, so the copy is never half-edited); its findings are shown only if the
 * fabric has not changed since the copy and no newer check was started.
 */
public final class ProblemsPane extends TitledPane {
    private final FabricDocument doc;
    /** One row per group of identical findings (Finding.group), as `fabriclab validate` prints them. */
    private final ListView<Finding.Group> list = new ListView<>();
    /** The individual findings of the last check (empty when the fabric changed since without a check). */
    private List<Finding> findings = List.of();
    private final PauseTransition debounce = new PauseTransition(Duration.millis(500));
    private Consumer<String> reveal = id -> { };
    private long lastCheckMillis;
    /** Counts the checks started; a result is shown only if it is of the newest one (FX thread only). */
    private long checksStarted;
    /**
     * Lint re-runs by itself after edits on fabrics of at most this many devices plus links (a
     * 4-unit rail fabric has 2,224; a 16,384-GPU one 52,480, where lint takes about half a second
     * and runs on request). Decided by size, not by how long the last check took, so the same
     * fabric behaves the same on any machine.
     */
    static final int AUTO_CHECK_MAX_ELEMENTS = 20_000;
    static final String NO_FINDINGS = "No findings: lint found nothing to report.";
    static final String NOT_CHECKED = "Not checked since the last edit: press Check.";

    public ProblemsPane(FabricDocument doc) {
        this.doc = doc;
        setText("Problems");
        setContent(list);
        setAnimated(false);
        setExpanded(false);
        list.setId("problems");
        list.setPrefHeight(130);
        list.setPlaceholder(new Label("Checking…"));
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Finding.Group f, boolean empty) {
                super.updateItem(f, empty);
                if (empty || f == null) {
                    setText(null);
                    setStyle("");
                } else {
                    setText(rowText(f));
                    setStyle(switch (f.severity()) {
                        case ERROR -> "-fx-text-fill: #b00020;";
                        case WARNING -> "-fx-text-fill: #8a5a00;";
                        case INFO -> "";
                    });
                }
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((o, was, f) -> {
            if (f != null) {
                // A group selects its first subject: the row stands for all of them, the first is where to look.
                select(f.subjects().get(0));
            }
        });
        debounce.setOnFinished(e -> check());
        doc.stack().addListener(() -> {
            if (checksAutomatically(doc.fabric())) {
                debounce.playFromStart();
            } else {
                // The findings shown were of the fabric before this edit: never show them as current.
                checksStarted++; // nor those of a check still running on the fabric before the edit
                findings = List.of();
                list.getItems().clear();
                list.setPlaceholder(new Label(NOT_CHECKED));
                setText("Problems: not checked since the last edit (" + doc.fabric().devices().size() + " devices, "
                        + doc.fabric().links().size() + " links) — press Check");
            }
        });
        javafx.scene.control.Button again = new javafx.scene.control.Button("Check");
        again.setOnAction(e -> check());
        setGraphic(again);
        // The first check starts just after the window has painted (its copy of the fabric then
        // does not delay the first frame) and runs in the background.
        setText("Problems: checking…");
        javafx.application.Platform.runLater(this::check);
    }

    /** Called with the id of a device to centre on when a finding is clicked. */
    public void setOnReveal(Consumer<String> c) {
        reveal = c;
    }

    /** The list view (tests scroll it). */
    ListView<Finding.Group> list() {
        return list;
    }

    /** The individual findings of the last check (the list shows them grouped). */
    public List<Finding> findings() {
        return findings;
    }

    /** The row that shows finding {@code f} (its group), or null when it is not shown. */
    Finding.Group rowOf(Finding f) {
        return list.getItems().stream().filter(g -> g.severity() == f.severity() && g.code().equals(f.code())
                && g.message().equals(f.message()) && g.fix().equals(f.fix()) && g.subjects().contains(f.subject()))
                .findFirst().orElse(null);
    }

    /** A row: severity, code, the subjects (the first few and "and N more") with "x12" when grouped, message, fix. */
    static String rowText(Finding.Group g) {
        String count = g.count() > 1 ? "  x" + g.count() : "";
        return g.severity() + "  " + g.code() + count + "  [" + g.subjectsText(3) + "]  " + g.message() + "  — fix: "
                + g.fix();
    }

    /** Whether lint re-runs by itself after an edit of this fabric (by its size, see {@link #AUTO_CHECK_MAX_ELEMENTS}). */
    static boolean checksAutomatically(Fabric f) {
        return (long) f.devices().size() + f.links().size() <= AUTO_CHECK_MAX_ELEMENTS;
    }

    /**
     * Runs lint now, in the background, on a copy of the fabric as it is now. The future has the
     * findings shown (completed on the FX thread once the list shows them), or null when the
     * fabric changed or another check started before this one ended (its findings are not shown).
     */
    public CompletableFuture<List<Finding>> check() {
        Fabric copy = doc.fabric().copy();
        long revision = doc.stack().revision();
        long mine = ++checksStarted;
        setText("Problems: checking…");
        return BackgroundTasks.shared().run("Checking " + copy.name(), () -> {
            long t0 = System.nanoTime();
            List<Finding> found = List.copyOf(Lint.check(copy));
            return new Checked(found, (System.nanoTime() - t0) / 1_000_000);
        }, c -> {
            if (mine == checksStarted && revision == doc.stack().revision()) {
                show(c);
            }
        }, ex -> setText("Problems: lint failed: " + ex.getMessage()))
                .thenApply(c -> mine == checksStarted && revision == doc.stack().revision() ? c.findings() : null);
    }

    /** Lint's findings of one copy and how long lint took. */
    private record Checked(List<Finding> findings, long millis) {
    }

    /** Findings from measured counters (the measured layer), listed before lint's (they are about the real fabric); empty: none. */
    private List<Finding> counterFindings = List.of();

    /** Sets the findings measured counters raise (CountersActions); they stay until replaced or the layer closes. */
    public void setCounterFindings(List<Finding> f) {
        counterFindings = List.copyOf(f);
        list.getItems().setAll(Finding.group(java.util.stream.Stream.concat(counterFindings.stream(), findings.stream()).toList()));
        String t = getText().replaceFirst(" \\+ \\d+ from counters$", "");
        setText(counterFindings.isEmpty() ? t : t + " + " + counterFindings.size() + " from counters");
    }

    /** The findings from measured counters shown. */
    public List<Finding> counterFindings() {
        return counterFindings;
    }

    private void show(Checked c) {
        List<Finding> found = c.findings();
        lastCheckMillis = c.millis();
        findings = found;
        list.getItems().setAll(Finding.group(java.util.stream.Stream.concat(counterFindings.stream(), found.stream()).toList()));
        list.setPlaceholder(new Label(NO_FINDINGS));
        long errors = found.stream().filter(f -> f.severity() == Finding.Severity.ERROR).count();
        long warnings = found.stream().filter(f -> f.severity() == Finding.Severity.WARNING).count();
        setText("Problems: " + errors + " errors, " + warnings + " warnings, " + (found.size() - errors - warnings)
                + " notes (lint " + lastCheckMillis + " ms)" + (counterFindings.isEmpty() ? "" : " + " + counterFindings.size()
                + " from counters"));
    }

    /** A finding's subject: a device id, a port "device:port", or a link id. */
    private void select(String subject) {
        Fabric f = doc.fabric();
        Device d = f.device(subject);
        Link l = f.link(subject);
        Port p = d == null && l == null ? f.port(subject) : null;
        if (d != null) {
            doc.selection().set(List.of(d), List.of());
            reveal.accept(d.id());
        } else if (l != null) {
            doc.selection().set(List.of(), List.of(l));
            reveal.accept(l.a().device().id());
        } else if (p != null) {
            Link on = f.linkAt(p);
            doc.selection().set(List.of(p.device()), on == null ? List.of() : List.of(on));
            reveal.accept(p.device().id());
        }
    }
}
