package io.fabriclab.ui.live;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.fabriclab.model.Fabric;
import io.fabriclab.ui.BackgroundTasks;
import io.fabriclab.ui.DialogFit;
import io.fabriclab.ui.live.TrainingForm.Field;
import io.fabriclab.workload.TrainingJob;
import javafx.animation.PauseTransition;
import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Control;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import javafx.util.Duration;
import org.controlsfx.validation.ValidationResult;
import org.controlsfx.validation.ValidationSupport;

/**
 * Simulate > Training Step… (and "training step…" in the live view's workload list): one training
 * step of a Megatron-style job on the open fabric's GPUs. Model (a preset, or its fields edited),
 * parallelism (TP, PP, DP, EP; Megatron's defaults for the model on this fabric), GPU (achieved
 * TFLOP/s, or the compute time of a micro-batch given directly) and schedule (gradient buckets
 * overlapping the backward pass, bucket size, distributed optimizer). Every keystroke checks the
 * job as the engine will ({@link TrainingForm}): a problem is shown next to the field it names
 * (a ControlsFX decoration and the message in words), and OK stays disabled until there is none.
 * A summary follows the fields as they are typed (GPUs, micro-batches, compute, gradients,
 * tokens), and the tasks the step makes are counted off the FX thread. OK hands the job to the
 * live view, which runs it.
 */
public final class TrainingJobDialog {
    static final String CUSTOM = "custom";

    private final Dialog<TrainingJob> dialog = new Dialog<>();
    private final TrainingForm form;
    final ComboBox<String> preset = new ComboBox<>();
    final Map<Field, TextField> fields = new EnumMap<>(Field.class);
    final Map<Field, Label> messages = new EnumMap<>(Field.class);
    private final Map<Field, Label> labels = new EnumMap<>(Field.class);
    final RadioButton byTflops = new RadioButton("from FLOPs at the achieved rate");
    final RadioButton byTime = new RadioButton("compute time per micro-batch given");
    final CheckBox overlap = new CheckBox("overlap gradient buckets with the last backward pass (DDP / ZeRO)");
    final CheckBox distributedOptimizer = new CheckBox("distributed optimizer (reduce-scatter + all-gather, ZeRO-1)");
    final Button megatron = new Button("Megatron defaults");
    final Label summary = new Label();
    final Label tasks = new Label();
    private final ValidationSupport validation = new ValidationSupport();
    private final PauseTransition debounce = new PauseTransition(Duration.millis(300));
    private TrainingForm.Check check;
    private boolean syncing;
    private long requestNo;
    /** A count is being built; {@code countAgain}: the fields changed since it started. */
    private boolean counting;
    private boolean countAgain;

    /**
     * A dialog for a job on {@code fabric} (a copy: the dialog reads it from background tasks),
     * filled from {@code initial} or, when null, from the smallest preset with Megatron's defaults.
     */
    public TrainingJobDialog(Window owner, Fabric fabric, TrainingJob initial) {
        this.form = new TrainingForm(fabric, initial);
        dialog.setTitle("Training Step");
        dialog.setHeaderText(String.format(java.util.Locale.ROOT,
                "One training step on the open fabric's %,d GPUs, run in the live view: compute as timed intervals,\n"
                        + "tensor-parallel all-reduces over NVLink, pipeline sends and data-parallel gradients on the fabric.",
                form.fabricGpus()));
        if (owner != null) {
            dialog.initOwner(owner);
        }
        preset.getItems().addAll(TrainingForm.presetNames());
        preset.getItems().add(CUSTOM);
        preset.setId("training-preset");
        for (Field f : Field.values()) {
            TextField t = new TextField();
            t.setId(id(f));
            t.setPrefColumnCount(f.path().startsWith("parallelism.") ? 5 : 8);
            fields.put(f, t);
            Label m = new Label();
            m.setId(id(f) + "-problem");
            m.setWrapText(true);
            m.setMaxWidth(190);
            m.setMinHeight(Region.USE_PREF_SIZE);
            m.setStyle("-fx-text-fill: #b00020;");
            messages.put(f, m);
            labels.put(f, new Label(f.label()));
            t.textProperty().addListener((o, a, b) -> {
                if (!syncing) {
                    form.set(f, b);
                    refresh();
                }
            });
        }
        ToggleGroup gpu = new ToggleGroup();
        byTflops.setToggleGroup(gpu);
        byTime.setToggleGroup(gpu);
        byTflops.setId("training-by-tflops");
        byTime.setId("training-by-time");
        overlap.setId("training-overlap");
        distributedOptimizer.setId("training-distributed-optimizer");
        megatron.setId("training-megatron");
        summary.setId("training-summary");
        tasks.setId("training-tasks");
        summary.setWrapText(true);
        tasks.setWrapText(true);
        summary.setMinHeight(Region.USE_PREF_SIZE);
        tasks.setMinHeight(Region.USE_PREF_SIZE);

        preset.valueProperty().addListener((o, a, b) -> {
            if (!syncing && b != null && !CUSTOM.equals(b)) {
                form.choosePreset(b);
                pull();
            }
        });
        gpu.selectedToggleProperty().addListener((o, a, b) -> {
            if (!syncing) {
                form.setUseComputeTime(byTime.isSelected());
                refresh();
            }
        });
        overlap.selectedProperty().addListener((o, a, b) -> {
            if (!syncing) {
                form.setOverlapGradients(b);
                refresh();
            }
        });
        distributedOptimizer.selectedProperty().addListener((o, a, b) -> {
            if (!syncing) {
                form.setDistributedOptimizer(b);
                refresh();
            }
        });
        megatron.setOnAction(e -> {
            if (form.megatronParallelism()) {
                pull();
            }
        });

        GridPane model = section();
        int r = 0;
        model.addRow(r++, new Label("Preset"), preset);
        for (Field f : List.of(Field.PARAMETERS, Field.LAYERS, Field.HIDDEN, Field.SEQUENCE, Field.GLOBAL_BATCH,
                Field.MICRO_BATCH, Field.EXPERTS, Field.TOP_K, Field.ACTIVE, Field.EXPERT)) {
            row(model, r++, f);
        }
        GridPane parallel = section();
        r = 0;
        for (Field f : List.of(Field.TP, Field.PP, Field.DP, Field.EP)) {
            row(parallel, r++, f);
        }
        Label layout = new Label("Ranks as Megatron lays them out: TP inside a server (NVLink), DP across\n"
                + "servers on one rail, pipeline stages DP servers apart.");
        layout.setStyle("-fx-text-fill: #52606d;");
        parallel.add(new HBox(8, megatron, layout), 0, r, 3, 1);
        GridPane gpuGrid = section();
        r = 0;
        gpuGrid.add(byTflops, 0, r++, 3, 1);
        row(gpuGrid, r++, Field.TFLOPS);
        gpuGrid.add(byTime, 0, r++, 3, 1);
        row(gpuGrid, r, Field.COMPUTE_US);
        GridPane schedule = section();
        r = 0;
        schedule.add(new Label("1F1B pipeline schedule; gradient accumulation syncs on the last micro-batch."), 0, r++, 3, 1);
        schedule.add(overlap, 0, r++, 3, 1);
        row(schedule, r++, Field.BUCKET_MB);
        schedule.add(distributedOptimizer, 0, r++, 3, 1);
        row(schedule, r, Field.GRADIENT_BYTES);

        // The summary sits under the model, beside the right column's three sections: the dialog
        // stays short enough for a 1280 x 800 screen.
        VBox summaryBox = new VBox(4, heading("What the step makes"), summary, tasks);
        summaryBox.setPadding(new Insets(8, 0, 0, 0));
        summary.setMaxWidth(560);
        tasks.setMaxWidth(560);
        VBox left = new VBox(6, heading("Model"), model, summaryBox);
        VBox right = new VBox(6, heading("Parallelism"), parallel, heading("GPU"), gpuGrid, heading("Schedule"), schedule);
        HBox columns = new HBox(16, left, right);
        VBox content = new VBox(10, columns);
        content.setPadding(new Insets(8));
        dialog.getDialogPane().setContent(content);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.CANCEL, ButtonType.OK);
        Button ok = (Button) dialog.getDialogPane().lookupButton(ButtonType.OK);
        ok.setId("training-ok");
        ok.setText("Run in Live View");
        ButtonBar.setButtonData(ok, ButtonBar.ButtonData.OK_DONE);
        dialog.setResultConverter(bt -> bt == ButtonType.OK && check != null && check.ok() ? check.job() : null);
        for (Field f : Field.values()) {
            TextField t = fields.get(f);
            validation.registerValidator(t, false, (Control c, String v) -> resultFor(c, f));
        }
        debounce.setOnFinished(e -> countTasks());
        DialogFit.fit(dialog);
        pull();
    }

    /** Shows the dialog without blocking; {@code onOk} receives the job when the user presses OK. */
    public void show(Consumer<TrainingJob> onOk) {
        dialog.setOnHidden(e -> {
            TrainingJob job = dialog.getResult();
            if (job != null) {
                onOk.accept(job);
            }
        });
        dialog.show();
    }

    Dialog<TrainingJob> dialog() {
        return dialog;
    }

    TrainingForm form() {
        return form;
    }

    /** The job the fields give now, or null while a problem is shown. */
    TrainingJob job() {
        return check != null && check.ok() ? check.job() : null;
    }

    boolean okDisabled() {
        return dialog.getDialogPane().lookupButton(ButtonType.OK).isDisable();
    }

    private static Label heading(String text) {
        Label l = new Label(text);
        l.setStyle("-fx-font-weight: bold;");
        return l;
    }

    private static GridPane section() {
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(4);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints problems = new ColumnConstraints();
        problems.setPrefWidth(190);
        problems.setHgrow(Priority.SOMETIMES);
        g.getColumnConstraints().addAll(labels, fields, problems);
        return g;
    }

    private void row(GridPane g, int r, Field f) {
        Label l = labels.get(f);
        l.setMinWidth(Region.USE_PREF_SIZE);
        g.addRow(r, l, fields.get(f), messages.get(f));
        // A message of two or three lines makes its row taller: the row reads from its top.
        GridPane.setValignment(l, javafx.geometry.VPos.TOP);
        GridPane.setValignment(fields.get(f), javafx.geometry.VPos.TOP);
        GridPane.setValignment(messages.get(f), javafx.geometry.VPos.TOP);
        l.setPadding(new Insets(4, 0, 0, 0));
        messages.get(f).setPadding(new Insets(2, 0, 0, 0));
        l.setAlignment(Pos.CENTER_LEFT);
    }

    /** Puts the form's values into the widgets (a preset chosen, Megatron's defaults), then checks. */
    private void pull() {
        syncing = true;
        try {
            for (Field f : Field.values()) {
                fields.get(f).setText(form.get(f));
            }
            byTime.setSelected(form.useComputeTime());
            byTflops.setSelected(!form.useComputeTime());
            overlap.setSelected(form.overlapGradients());
            distributedOptimizer.setSelected(form.distributedOptimizer());
        } finally {
            syncing = false;
        }
        refresh();
    }

    /** Checks the form, shows each problem next to its field, enables OK only without one, updates the summary. */
    private void refresh() {
        check = form.check();
        boolean moe = form.moe();
        syncing = true;
        try {
            preset.setValue(form.preset() == null ? CUSTOM : form.preset());
        } finally {
            syncing = false;
        }
        for (Field f : Field.values()) {
            boolean on = form.applies(f, moe);
            fields.get(f).setDisable(!on);
            labels.get(f).setDisable(!on);
            String p = check.problems().get(f);
            messages.get(f).setText(p == null ? "" : p);
        }
        validation.revalidate();
        dialog.getDialogPane().lookupButton(ButtonType.OK).setDisable(!check.ok());
        requestNo++;
        if (check.ok()) {
            summary.setText(form.summary(check.job()));
            growToContent();
            summary.setStyle("");
            tasks.setText("Tasks the step makes: counting…");
            debounce.playFromStart();
        } else {
            debounce.stop();
            Map.Entry<Field, String> first = check.problems().entrySet().iterator().next();
            summary.setText("Cannot run: " + first.getKey().label() + ": " + first.getValue());
            summary.setStyle("-fx-text-fill: #b00020;");
            tasks.setText("");
            growToContent();
        }
    }

    /**
     * The window grows when its content has (a message or the task count takes more lines than
     * when it opened), so the buttons never slip below its edge; a window the user made larger stays.
     */
    private void growToContent() {
        javafx.scene.Scene scene = dialog.getDialogPane().getScene();
        if (scene == null || !(scene.getWindow() instanceof javafx.stage.Stage st) || !st.isShowing()) {
            return;
        }
        dialog.getDialogPane().applyCss();
        dialog.getDialogPane().layout();
        double w = dialog.getDialogPane().prefWidth(-1);
        double h = dialog.getDialogPane().prefHeight(w);
        if (scene.getHeight() < h - 1 || scene.getWidth() < w - 1) {
            st.sizeToScene();
        }
    }

    private ValidationResult resultFor(Control c, Field f) {
        String p = check == null ? null : check.problems().get(f);
        return p == null ? new ValidationResult() : ValidationResult.fromError(c, f.label() + ": " + p);
    }

    /** Builds the step's tasks in the background (a large model makes hundreds of thousands) and shows their counts. */
    private void countTasks() {
        TrainingJob job = job();
        if (job == null) {
            return;
        }
        if (counting) {
            // One build at a time (a large job's tasks take seconds and hundreds of MB): the
            // fields changed meanwhile are counted when it is done.
            countAgain = true;
            return;
        }
        counting = true;
        countAgain = false;
        long no = requestNo;
        Fabric fabric = form.fabric();
        Task<TrainingForm.Tasks> t = new BackgroundTasks.Job<>() {
            @Override
            protected TrainingForm.Tasks work() {
                return TrainingForm.count(job, fabric);
            }
        };
        t.setOnSucceeded(e -> {
            counted();
            if (no == requestNo) {
                tasks.setText(TrainingForm.tasksText(t.getValue()));
                growToContent();
            }
        });
        t.setOnFailed(e -> {
            counted();
            if (no == requestNo) {
                tasks.setText("Tasks the step makes: cannot build them: " + t.getException().getMessage());
            }
        });
        BackgroundTasks.shared().execute(t, "Counting the training step's tasks");
    }

    private void counted() {
        counting = false;
        if (countAgain) {
            countTasks();
        }
    }

    /** The node id of a field's text box: "training-parallelism-tp" (its message: that and "-problem"). */
    static String id(Field f) {
        return "training-" + f.path().replace('.', '-');
    }

    ValidationSupport validation() {
        return validation;
    }
}
