package io.fabriclab.ui;

import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.controlsfx.property.editor.PropertyEditor;

import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;

/**
 * One row of the inspector. Reading goes straight to the model; writing goes through
 * {@code commit}, which the inspector turns into an undoable command. Text rows commit on Enter
 * or when focus leaves (one command per edit, not per keystroke); bad input turns the field red
 * and changes nothing.
 */
final class FabricProperty<T> extends SheetItem {
    private final Supplier<T> getter;
    private final Consumer<T> commit;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final T[] choices;
    /** Enum choices show as files spell them (lower case); other choices by the formatter. */
    private boolean lowerCaseChoices = true;
    private String id;

    private FabricProperty(String category, String name, String description, Class<?> type, Supplier<T> getter,
                           Consumer<T> commit, Function<String, T> parser, Function<T, String> formatter, T[] choices) {
        super(category, name, description, type);
        this.getter = getter;
        this.commit = commit;
        this.parser = parser;
        this.formatter = formatter;
        this.choices = choices;
    }

    static FabricProperty<String> readOnly(String category, String name, String description, Supplier<String> getter) {
        return new FabricProperty<>(category, name, description, String.class, getter, null, null, s -> s, null);
    }

    /** A text row; the parser throws IllegalArgumentException on bad input. */
    static <T> FabricProperty<T> text(String category, String name, String description, Supplier<T> getter,
                                      Consumer<T> commit, Function<String, T> parser, Function<T, String> formatter) {
        return new FabricProperty<>(category, name, description, String.class, getter, commit, parser, formatter, null);
    }

    static <E extends Enum<E>> FabricProperty<E> choice(String category, String name, String description,
                                                         Supplier<E> getter, Consumer<E> commit, E[] values) {
        return new FabricProperty<>(category, name, description, values.getClass().getComponentType(), getter, commit,
                null, e -> e == null ? "" : e.toString(), values);
    }

    /** A choice among values that are not an enum, each shown by {@code label} (e.g. the known GPUs). */
    static <T> FabricProperty<T> options(String category, String name, String description, Supplier<T> getter,
                                         Consumer<T> commit, T[] values, Function<T, String> label) {
        FabricProperty<T> p = new FabricProperty<>(category, name, description, values.getClass().getComponentType(),
                getter, commit, null, v -> v == null ? "" : label.apply(v), values);
        p.lowerCaseChoices = false;
        return p;
    }

    @Override
    public Object getValue() {
        return formatter.apply(getter.get());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void setValue(Object value) {
        if (commit == null) {
            return;
        }
        T v = choices != null ? (T) value : parser.apply(String.valueOf(value));
        commit.accept(v);
    }

    @Override
    public Optional<ObservableValue<? extends Object>> getObservableValue() {
        return Optional.empty();
    }

    @Override
    public boolean isEditable() {
        return commit != null;
    }

    // ----- parsers: each throws IllegalArgumentException with a message the field shows --------

    static String nonEmpty(String s) {
        if (s.isBlank()) {
            throw new IllegalArgumentException("must not be empty");
        }
        return s.trim();
    }

    static String nullIfBlank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    static <V> String blankIfNull(V v) {
        return v == null ? "" : String.valueOf(v);
    }

    /** Empty for none, else a whole number >= 0. */
    static Integer optionalIndex(String s) {
        if (s.isBlank()) {
            return null;
        }
        try {
            int v = Integer.parseInt(s.trim());
            if (v < 0) {
                throw new IllegalArgumentException("must be >= 0 (or empty for none)");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number: " + s);
        }
    }

    static Integer intIn(String s, int min, int max) {
        try {
            int v = Integer.parseInt(s.trim());
            if (v < min || v > max) {
                throw new IllegalArgumentException("must be between " + min + " and " + max);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number: " + s);
        }
    }

    /** A link speed: one of the allowed speeds and no faster than the slower port. */
    static Integer speed(String s, int maxGbps) {
        int v = io.fabriclab.model.Units.parseSpeedGbps(s);
        if (!io.fabriclab.model.Units.isAllowedSpeed(v)) {
            throw new IllegalArgumentException("speed must be one of " + io.fabriclab.model.Units.allowedSpeeds());
        }
        if (v > maxGbps) {
            throw new IllegalArgumentException("the ports run at most " + maxGbps + "G");
        }
        return v;
    }

    static Double length(String s) {
        try {
            double v = Double.parseDouble(s.trim());
            if (!(v > 0) || v > 10_000) {
                throw new IllegalArgumentException("length must be > 0 and <= 10000 m");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + s);
        }
    }

    /** The row's id when its name carries a value that changes ("Port A (leaf1)"), so its editor id stays put. */
    FabricProperty<T> withId(String stableId) {
        this.id = stableId;
        return this;
    }

    /**
     * "prop-" and the row's id if it has one, else its name in lower case words joined by '-',
     * e.g. "prop-speed-gb-s" (for tests and styling).
     */
    String editorId() {
        if (id != null) {
            return "prop-" + id;
        }
        return "prop-" + getName().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("-$", "");
    }

    /** The editor node for this row. */
    PropertyEditor<?> createEditor() {
        PropertyEditor<?> e = createEditorNode();
        e.getEditor().setId(editorId());
        return e;
    }

    private PropertyEditor<?> createEditorNode() {
        if (commit == null) {
            Label l = new Label(String.valueOf(getValue()));
            return new SimpleEditor<>(l, () -> l.getText(), v -> l.setText(String.valueOf(v)));
        }
        if (choices != null) {
            ComboBox<T> box = new ComboBox<>(FXCollections.observableArrayList(choices));
            box.setMaxWidth(Double.MAX_VALUE);
            // Show enum values the way files spell them ("up", "mmf", "leaf").
            box.setConverter(new javafx.util.StringConverter<T>() {
                @Override
                public String toString(T v) {
                    return v == null ? "" : lowerCaseChoices ? v.toString().toLowerCase(java.util.Locale.ROOT)
                            : formatter.apply(v);
                }

                @Override
                public T fromString(String text) {
                    return null;
                }
            });
            box.setValue(getter.get());
            box.setOnAction(e -> {
                if (box.getValue() != null && box.getValue() != getter.get()) {
                    commit.accept(box.getValue());
                }
            });
            return new SimpleEditor<>(box, box::getValue, v -> { });
        }
        TextField field = new TextField(String.valueOf(getValue()));
        field.setPromptText("none");
        Runnable apply = () -> {
            String before = String.valueOf(getValue());
            if (field.getText().equals(before)) {
                field.setStyle("");
                return;
            }
            try {
                setValue(field.getText());
                field.setStyle("");
            } catch (IllegalArgumentException ex) {
                field.setStyle("-fx-border-color: #d62728; -fx-border-width: 1.5;");
                field.setTooltip(new javafx.scene.control.Tooltip(ex.getMessage()));
            }
        };
        field.setOnAction(e -> apply.run());
        field.focusedProperty().addListener((o, was, is) -> {
            if (!is) {
                apply.run();
            }
        });
        return new SimpleEditor<>(field, field::getText, v -> field.setText(String.valueOf(v)));
    }

    /** A property editor over any node; the row itself decides when to commit. */
    private record SimpleEditor<V>(Node node, Supplier<V> value, Consumer<Object> setter) implements PropertyEditor<V> {
        @Override
        public Node getEditor() {
            return node;
        }

        @Override
        public V getValue() {
            return value.get();
        }

        @Override
        public void setValue(V v) {
            setter.accept(v);
        }
    }
}
