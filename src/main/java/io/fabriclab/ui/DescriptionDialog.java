package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.describe.Default;
import io.fabriclab.topology.describe.Descriptions;
import io.fabriclab.topology.describe.Span;
import io.fabriclab.topology.describe.Term;
import io.fabriclab.topology.describe.Understanding;
import javafx.animation.PauseTransition;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * File > New from Description… (and the Welcome page's field): a fabric from a sentence
 * (docs/describe.md). As the user types, the sentence is shown with every word marked (understood,
 * not used, glue, or the words an error is about), with a table of the terms taken, the defaults
 * applied and the words not used, and the counts of the fabric it makes, as New from Template's
 * preview does: the fabric is built off the FX thread after a pause in typing, and OK hands over
 * exactly that fabric (one undo step).
 */
final class DescriptionDialog {
    /** Styles of the marked words (also the legend's). */
    static final String UNDERSTOOD = "-fx-background-color: #c8efd0; -fx-text-fill: #0b5a1c; -fx-background-radius: 3;";
    static final String UNUSED = "-fx-background-color: #ffe2b8; -fx-text-fill: #7a4100; -fx-background-radius: 3; "
            + "-fx-underline: true;";
    static final String GLUE = "-fx-text-fill: #6b7785;";
    static final String ERROR = "-fx-background-color: #ffd0d4; -fx-text-fill: #9b0016; -fx-background-radius: 3;";
    static final String DEFAULTED = "-fx-background-color: #dbe8ff; -fx-text-fill: #123d8a; -fx-background-radius: 3;";

    /** One row of the table: a term taken, a default applied, or a word not used. */
    record Row(String kind, String what, String value, String from) {
    }

    private final Dialog<ButtonType> dialog = new Dialog<>();
    final TextArea text = new TextArea();
    final FlowPane marked = new FlowPane(2, 4);
    final TableView<Row> table = new TableView<>();
    final Label preview = new Label("…");
    private final PauseTransition debounce = new PauseTransition(Duration.millis(250));
    private TemplateDialog.Generated current;
    private Understanding understanding;
    private long requestNo;

    DescriptionDialog(Window owner, String initial) {
        dialog.setTitle("New from description");
        dialog.setHeaderText("Describe the fabric in plain English. Green words were understood, orange ones not used; blue\n"
                + "rows are the defaults applied. Nothing changes until OK (and OK is one undo step).");
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.setResizable(true);
        text.setId("description-text");
        text.setWrapText(true);
        text.setPrefRowCount(3);
        text.setPromptText(Descriptions.EXAMPLE);
        text.setText(initial == null ? "" : initial);
        marked.setId("description-marked");
        marked.setPadding(new Insets(6));
        marked.setStyle("-fx-border-color: #d0d7de; -fx-border-radius: 4;");
        marked.setPrefWrapLength(640);
        table.setId("description-table");
        table.setPrefHeight(240);
        table.getColumns().add(column("", Row::kind, 90));
        table.getColumns().add(column("What", Row::what, 190));
        table.getColumns().add(column("Value", Row::value, 130));
        table.getColumns().add(column("From the words / why", Row::from, 330));
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(Row r, boolean empty) {
                super.updateItem(r, empty);
                setStyle(r == null || empty ? "" : switch (r.kind()) {
                    case "understood" -> "-fx-background-color: #eefaf0;";
                    case "default" -> "-fx-background-color: #eef4ff;";
                    case "not used" -> "-fx-background-color: #fff4e5;";
                    default -> "";
                });
            }
        });
        table.setPlaceholder(new Label("Type a description above."));
        preview.setId("description-preview");
        preview.setWrapText(true);
        // Room for the four lines of counts and three lines of marks from the start: the window is
        // sized to its content when it opens (DialogFit), before the first sentence is read.
        preview.setMinHeight(72);
        marked.setMinHeight(62);
        HBox legend = new HBox(8, chip("understood", UNDERSTOOD), chip("default", DEFAULTED), chip("not used", UNUSED),
                chip("glue", GLUE), chip("error", ERROR));
        VBox box = new VBox(8, text, legend, marked, table, preview);
        VBox.setVgrow(table, Priority.ALWAYS);
        box.setPrefWidth(760);
        dialog.getDialogPane().setContent(box);
        dialog.getDialogPane().setMinSize(javafx.scene.layout.Region.USE_PREF_SIZE, javafx.scene.layout.Region.USE_PREF_SIZE);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.CANCEL, ButtonType.OK);
        dialog.getDialogPane().lookupButton(ButtonType.OK).setDisable(true);
        dialog.getDialogPane().lookupButton(ButtonType.OK).setId("description-ok");
        DialogFit.fit(dialog);
        debounce.setOnFinished(e -> regenerate());
        text.textProperty().addListener((o, a, b) -> changed());
        changed();
    }

    /** Opens the dialog for {@code editor}; OK replaces the open fabric as one undoable step. */
    static DescriptionDialog open(FabricEditor editor, String initial) {
        DescriptionDialog d = new DescriptionDialog(editor.getScene() == null ? null : editor.getScene().getWindow(), initial);
        d.show(g -> {
            editor.document().execute(new ReplaceFabricCommand(editor.document(), "New from description", g.fabric(), null));
            editor.message("Built from the description: " + TemplateDialog.previewText(g).replace('\n', ' ')
                    + " (Ctrl+Z undoes it)");
        });
        return d;
    }

    /** Shows the dialog without blocking; {@code onOk} receives the previewed fabric. */
    void show(Consumer<TemplateDialog.Generated> onOk) {
        dialog.setOnHidden(e -> {
            if (dialog.getResult() == ButtonType.OK && current != null) {
                onOk.accept(current);
            }
        });
        dialog.show();
        text.requestFocus();
        text.positionCaret(text.getLength());
    }

    Dialog<ButtonType> dialog() {
        return dialog;
    }

    /** The last finished preview (null while one runs or when the description makes no fabric). */
    TemplateDialog.Generated current() {
        return current;
    }

    Understanding understanding() {
        return understanding;
    }

    private void changed() {
        requestNo++;
        current = null;
        dialog.getDialogPane().lookupButton(ButtonType.OK).setDisable(true);
        // Reading a sentence takes microseconds (at most 2,000 characters): the marks follow every key.
        understanding = Descriptions.understand(text.getText());
        preview.setStyle("");
        preview.setText(understanding.ok() ? "building…" : "");
        show(understanding);
        debounce.playFromStart();
    }

    private void show(Understanding u) {
        marked.getChildren().setAll(marks(u));
        // What the user did not say comes first (the words not used, then the defaults): the marks above
        // already show the understood words in the sentence's order.
        List<Row> rows = new ArrayList<>();
        for (Span s : u.unused()) {
            rows.add(new Row("not used", "'" + s.in(u.text()) + "'", "", "not a word FabricLab reads here"));
        }
        for (Default d : u.defaults()) {
            rows.add(new Row("default", d.slot().label(), d.value(), d.why()));
        }
        for (Term t : u.terms()) {
            rows.add(new Row("understood", t.slot().label(), Understanding.show(t.slot(), t.value()), t.quoted(u.text())));
        }
        table.getItems().setAll(rows);
        if (u.error() != null) {
            preview.setText("Cannot build this: " + u.error());
            preview.setStyle("-fx-text-fill: #b00020;");
        }
    }

    /** The description word by word, each marked by what became of it (used by the Welcome page too). */
    static List<Node> marks(Understanding u) {
        String s = u.text() == null ? "" : u.text();
        List<Node> out = new ArrayList<>();
        record Mark(Span span, String style) {
        }
        List<Mark> found = new ArrayList<>();
        u.understood().forEach(x -> found.add(new Mark(x, UNDERSTOOD)));
        u.unused().forEach(x -> found.add(new Mark(x, UNUSED)));
        u.glue().forEach(x -> found.add(new Mark(x, GLUE)));
        u.errorWords().forEach(x -> found.add(new Mark(x, ERROR)));
        found.sort((a, b) -> a.span().compareTo(b.span()));
        List<Mark> all = found;
        // Error words win over the term that took them; then neighbours of one kind, apart by spaces only, join.
        List<Mark> errors = found.stream().filter(m -> m.style().equals(ERROR)).toList();
        List<Mark> joined = new ArrayList<>();
        for (Mark m : found) {
            if (!m.style().equals(ERROR) && errors.stream().anyMatch(e -> e.span().equals(m.span()))) {
                continue;
            }
            Mark last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
            if (last != null && last.style().equals(m.style()) && m.span().start() >= last.span().end()
                    && m.span().end() <= s.length() && s.substring(last.span().end(), m.span().start()).isBlank()) {
                joined.set(joined.size() - 1, new Mark(last.span().join(m.span()), m.style()));
            } else {
                joined.add(m);
            }
        }
        all = joined;
        int at = 0;
        for (Mark m : all) {
            if (m.span().start() < at || m.span().end() > s.length()) {
                continue; // overlaps a word already shown
            }
            Label l = new Label(m.span().in(s));
            l.setStyle(m.style());
            l.setPadding(new Insets(1, 3, 1, 3));
            l.getProperties().put("span", m.span());
            l.getProperties().put("mark", m.style() == UNDERSTOOD ? "understood" : m.style() == UNUSED ? "unused"
                    : m.style() == GLUE ? "glue" : "error");
            out.add(l);
            at = m.span().end();
        }
        if (!u.defaults().isEmpty()) {
            Label d = new Label("+ " + u.defaults().size() + " default" + (u.defaults().size() == 1 ? "" : "s"));
            d.setStyle(DEFAULTED);
            d.setPadding(new Insets(1, 3, 1, 3));
            d.getProperties().put("mark", "defaulted");
            out.add(d);
        }
        return out;
    }

    private static Label chip(String text, String style) {
        Label l = new Label(text);
        l.setStyle(style);
        l.setPadding(new Insets(1, 4, 1, 4));
        return l;
    }

    private static TableColumn<Row, String> column(String title, java.util.function.Function<Row, String> f, double width) {
        TableColumn<Row, String> c = new TableColumn<>(title);
        c.setCellValueFactory(r -> new ReadOnlyObjectWrapper<>(f.apply(r.getValue())));
        c.setPrefWidth(width);
        c.setSortable(false);
        return c;
    }

    private void regenerate() {
        long no = requestNo;
        Understanding u = understanding;
        if (u == null || !u.ok()) {
            return;
        }
        Task<TemplateDialog.Generated> t = new BackgroundTasks.Job<>() {
            @Override
            protected TemplateDialog.Generated work() throws Exception {
                Fabric f = u.blueprint().build();
                io.fabriclab.io.FabricFiles.checkReadable(f, "the description");
                return TemplateDialog.describe(u.blueprint().kind().words(), f);
            }
        };
        t.setOnSucceeded(e -> {
            if (no != requestNo) {
                return;
            }
            current = t.getValue();
            preview.setStyle("");
            preview.setText(TemplateDialog.previewText(current));
            dialog.getDialogPane().lookupButton(ButtonType.OK).setDisable(false);
            DialogFit.refit(dialog);
        });
        t.setOnFailed(e -> {
            if (no == requestNo) {
                current = null;
                preview.setText("Cannot build this: " + t.getException().getMessage());
                preview.setStyle("-fx-text-fill: #b00020;");
            }
        });
        BackgroundTasks.shared().execute(t, "Building the described fabric");
    }
}
