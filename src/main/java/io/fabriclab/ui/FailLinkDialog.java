package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.controlsfx.control.textfield.TextFields;

import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import javafx.event.ActionEvent;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * Fabric > Fail a Link… with no link selected: the link is typed (its id, one of its ports, or
 * its two devices), with completion from the open fabric's own names (ControlsFX), and the
 * example in the hint is a link of this fabric. A name that matches nothing keeps the dialog open
 * with the reason under the field (issue 35 item 7: it closed and only the status bar said so).
 */
final class FailLinkDialog {
    /** Most suggestions shown at once. */
    static final int MAX_SUGGESTIONS = 40;

    final Dialog<Link> dialog = new Dialog<>();
    final TextField field = new TextField();
    final Label error = new Label();
    private final Fabric fabric;
    private final List<String> names;

    FailLinkDialog(Fabric fabric, Window owner) {
        this.fabric = fabric;
        this.names = names(fabric);
        String example = example(fabric);
        dialog.setTitle("Fail a link");
        dialog.setHeaderText("Which link? Type its id, one of its ports or its two devices"
                + (example == null ? "" : " (for example " + example + ")") + ", or select it on the canvas first.");
        if (owner != null) {
            dialog.initOwner(owner);
        }
        field.setId("fail-link-name");
        field.setPromptText(example == null ? "link id or device:port" : example);
        field.setPrefColumnCount(32);
        error.setId("fail-link-error");
        error.setWrapText(true);
        error.setStyle("-fx-text-fill: #b00020;");
        error.managedProperty().bind(error.textProperty().isNotEmpty());
        field.textProperty().addListener((o, a, b) -> error.setText(""));
        // The suggestions are a list of strings made here, on the FX thread: ControlsFX asks for them
        // on a thread of its own, which must not read the fabric.
        TextFields.bindAutoCompletion(field, req -> suggestions(names, req.getUserText()));
        dialog.getDialogPane().setContent(new VBox(6, field, error));
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.CANCEL, ButtonType.OK);
        Button ok = (Button) dialog.getDialogPane().lookupButton(ButtonType.OK);
        ok.setText("Fail Link");
        // A name that matches nothing: say so here, and stay open for another try.
        ok.addEventFilter(ActionEvent.ACTION, e -> {
            if (resolve() == null) {
                e.consume();
                field.requestFocus();
            }
        });
        dialog.setResultConverter(b -> b == ButtonType.OK ? resolve() : null);
        DialogFit.fit(dialog);
        dialog.setOnShown(e -> field.requestFocus());
    }

    /** The link the field names (and the error text cleared), or null with the reason shown. */
    Link resolve() {
        String spec = field.getText() == null ? "" : field.getText().trim();
        if (spec.isEmpty()) {
            error.setText("Type a link's id, a port (device:port) or two devices (a--b).");
            return null;
        }
        Link l = fabric.findLink(spec);
        if (l == null) {
            List<String> near = suggestions(names, spec.contains(":") ? spec.substring(0, spec.indexOf(':') + 1) : spec);
            error.setText("No link matches \"" + spec + "\"" + (near.isEmpty() ? "."
                    : ". Did you mean " + String.join(", ", near.subList(0, Math.min(3, near.size()))) + "?"));
            return null;
        }
        error.setText("");
        return l;
    }

    /** Every name a link goes by: its id and its two ports (device:port). */
    static List<String> names(Fabric f) {
        List<String> out = new ArrayList<>();
        for (Link l : f.links()) {
            out.add(l.id());
            out.add(l.a().ref());
            out.add(l.b().ref());
        }
        return out;
    }

    /** Up to {@link #MAX_SUGGESTIONS} names that start with {@code typed} (case-insensitive), then those containing it. */
    static List<String> suggestions(List<String> names, String typed) {
        String t = typed == null ? "" : typed.trim().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            return List.of();
        }
        List<String> starts = new ArrayList<>();
        List<String> contains = new ArrayList<>();
        for (String n : names) {
            String low = n.toLowerCase(Locale.ROOT);
            if (low.startsWith(t)) {
                starts.add(n);
            } else if (low.contains(t) && contains.size() < MAX_SUGGESTIONS) {
                contains.add(n);
            }
            if (starts.size() >= MAX_SUGGESTIONS) {
                break;
            }
        }
        starts.addAll(contains);
        return starts.size() > MAX_SUGGESTIONS ? starts.subList(0, MAX_SUGGESTIONS) : starts;
    }

    /** A port of this fabric's first switch-to-switch link (an uplink), else of its first link; null for none. */
    static String example(Fabric f) {
        for (Link l : f.links()) {
            Device a = l.a().device();
            Device b = l.b().device();
            if (a.role() != DeviceRole.SERVER && b.role() != DeviceRole.SERVER) {
                return l.a().ref();
            }
        }
        return f.links().isEmpty() ? null : f.links().iterator().next().a().ref();
    }
}
