package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextInputDialog;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

import org.controlsfx.control.PropertySheet;
import org.controlsfx.property.editor.DefaultPropertyEditorFactory;
import org.controlsfx.property.editor.PropertyEditor;
import org.controlsfx.validation.ValidationResult;
import org.controlsfx.validation.ValidationSupport;

import io.fabriclab.edit.AssignQosProfileCommand;
import io.fabriclab.edit.SetQosProfileCommand;
import io.fabriclab.io.InputProblem;
import io.fabriclab.io.QosProfileCheck;
import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.WredEcn;
import io.fabriclab.topology.HeadroomCalculator;

/**
 * Fabric > QoS Profiles…: the fabric's profiles on the left, the chosen one's PFC, ECN/WRED per class,
 * DCQCN, buffer and scheduler fields in a ControlsFX {@link PropertySheet}. Every keystroke re-checks the
 * edited profile with the fabric reader's own rules ({@link QosProfileCheck}): the field at fault gets a
 * {@link ValidationSupport} decoration and the problems are listed with their JSON paths; Apply is enabled
 * only for a valid, changed profile and records one {@link SetQosProfileCommand}. "Assign to selected
 * devices / their ports" records one {@link AssignQosProfileCommand}. Undo and redo in the editor reload
 * the profile shown.
 *
 * <p>About 630 lines, a little above the 600 the ui classes aim for: one property sheet's items for
 * five sections, each bound to its field of the profile record, and their validation.
 */
final class QosEditor extends BorderPane {
    private static final String KEY = QosEditor.class.getName();
    static final String PROFILE = "Profile";
    static final String PFC = "PFC (lossless)";
    static final String ECN = "ECN / WRED";
    static final String DCQCN = "DCQCN";
    static final String BUFFER = "Buffer";
    static final String SCHEDULER = "Scheduler";
    /** The categories in the order a RoCE engineer reads a profile. */
    private static final List<String> CATEGORIES = List.of(PROFILE, PFC, ECN, DCQCN, BUFFER, SCHEDULER);

    private final FabricEditor editor;
    private final FabricDocument doc;
    private final ListView<String> profiles = new ListView<>();
    private final PropertySheet sheet = new PropertySheet();
    private final ListView<String> problemList = new ListView<>();
    private final Label headroomNote = new Label();
    private final Button apply = new Button("Apply");
    private final Button revert = new Button("Revert");
    private final Button toDevices = new Button("Assign to Selected Devices");
    private final Button toPorts = new Button("Assign to Ports of Selected Devices");
    private final Runnable onHistory = this::reload;
    private ValidationSupport validation = new ValidationSupport();
    private final Map<String, Control> controls = new LinkedHashMap<>();

    /** The fields of the profile shown, keyed by their JSON path below the profile ("pfc.xoffBytes"). */
    private final Map<String, Object> values = new LinkedHashMap<>();
    /** Fields whose text is not a number of their type, with why. */
    private final Map<String, String> textProblems = new LinkedHashMap<>();
    private QosProfile shown;
    private List<InputProblem> problems = List.of();
    private String parseProblemKey;
    private String parseProblem;
    private long headroomNeeded = -1;

    QosEditor(FabricEditor editor) {
        this.editor = editor;
        this.doc = editor.document();
        setId("qos-editor");
        profiles.setId("qos-profiles");
        profiles.setPrefWidth(200);
        profiles.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> show(b));
        sheet.setMode(PropertySheet.Mode.CATEGORY);
        sheet.setModeSwitcherVisible(false);
        sheet.setCategoryComparator(java.util.Comparator.comparingInt(CATEGORIES::indexOf));
        sheet.setPropertyEditorFactory(this::editorFor);
        problemList.setId("qos-problems");
        problemList.setPrefHeight(90);
        apply.setId("qos-apply");
        apply.setDefaultButton(true);
        apply.setOnAction(e -> apply());
        revert.setOnAction(e -> show(shown == null ? null : shown.name()));
        toDevices.setId("qos-assign-devices");
        toDevices.setOnAction(e -> assign(AssignQosProfileCommand.Target.DEVICES));
        toPorts.setId("qos-assign-ports");
        toPorts.setOnAction(e -> assign(AssignQosProfileCommand.Target.PORTS));
        Button add = new Button("New Profile…");
        add.setOnAction(e -> askNewProfile());
        headroomNote.setId("qos-headroom-needed");
        headroomNote.setWrapText(true);
        VBox left = new VBox(6, new Label("Profiles"), profiles, add);
        VBox.setVgrow(profiles, Priority.ALWAYS);
        left.setPadding(new Insets(8));
        HBox buttons = new HBox(8, apply, revert, toDevices, toPorts);
        VBox bottom = new VBox(6, headroomNote, new Label("Problems"), problemList, buttons);
        bottom.setPadding(new Insets(8));
        setLeft(left);
        setCenter(sheet);
        setBottom(bottom);
        doc.stack().addListener(onHistory);
        doc.selection().addListener(this::updateButtons);
        reload();
    }

    /** The menu item (Fabric > QoS Profiles…) that opens the editor's window, or brings it to the front. */
    static MenuItem menuItem(FabricEditor editor) {
        MenuItem m = new MenuItem("QoS Profiles…");
        m.setId("menu-qos-profiles");
        m.setOnAction(e -> open(editor));
        return m;
    }

    /** Opens (once per editor) the QoS editor's window, owned by the editor's window. */
    static Stage open(FabricEditor editor) {
        Object existing = editor.getProperties().get(KEY);
        if (existing instanceof Stage s) {
            s.show();
            s.toFront();
            return s;
        }
        QosEditor pane = new QosEditor(editor);
        Stage s = new Stage();
        s.setTitle("QoS Profiles — " + editor.document().fabric().name());
        if (editor.getScene() != null && editor.getScene().getWindow() != null) {
            s.initOwner(editor.getScene().getWindow());
        }
        s.setScene(new Scene(pane, 960, 760));
        s.setOnHidden(e -> {
            pane.dispose();
            editor.getProperties().remove(KEY);
        });
        editor.getProperties().put(KEY, s);
        s.show();
        return s;
    }

    void dispose() {
        doc.stack().removeListener(onHistory);
    }

    // ----- profiles ----------------------------------------------------------------------------

    /** Re-reads the fabric's profiles (after apply, undo, redo or a new document) and shows the chosen one. */
    private void reload() {
        Fabric f = doc.fabric();
        String keep = shown != null && f.qosProfile(shown.name()) != null ? shown.name() : f.defaultQosProfile();
        profiles.getItems().setAll(f.qosProfiles().keySet());
        if (keep != null && profiles.getItems().contains(keep)) {
            profiles.getSelectionModel().select(keep);
            show(keep); // the selection may not have changed while the profile did
        } else {
            show(null);
        }
    }

    private void show(String name) {
        Fabric f = doc.fabric();
        shown = name == null ? null : f.qosProfile(name);
        values.clear();
        textProblems.clear();
        parseProblem = null;
        parseProblemKey = null;
        if (shown != null) {
            read(shown);
        }
        headroomNeeded = -1;
        headroomNote.setText(shown == null ? "" : headroomText(f, shown.name()));
        controls.clear();
        validation = new ValidationSupport();
        sheet.getItems().setAll(shown == null ? List.of() : items());
        check();
    }

    private void askNewProfile() {
        TextInputDialog d = new TextInputDialog();
        d.setTitle("New QoS Profile");
        d.setHeaderText("Name of the new profile (a copy of " + (shown == null ? "the RoCEv2 lossless defaults" : shown.name()) + ")");
        if (getScene() != null) {
            d.initOwner(getScene().getWindow());
        }
        d.showAndWait().map(String::trim).filter(s -> !s.isEmpty()).ifPresent(this::newProfile);
    }

    /** Adds a profile named {@code name}, a copy of the one shown (or the RoCEv2 lossless defaults), as one command. */
    void newProfile(String name) {
        if (doc.fabric().qosProfile(name) != null) {
            editor.dialogs().showErrors("No profile added", "A QoS profile named '" + name + "' already exists.");
            return;
        }
        QosProfile base = shown == null ? QosProfile.roceLossless(name, 400) : shown.withName(name);
        doc.execute(new SetQosProfileCommand(doc.fabric(), base));
        profiles.getSelectionModel().select(name);
        editor.message("Added QoS profile " + name);
    }

    /** Records the edited profile as one undoable command. */
    void apply() {
        QosProfile p = edited();
        if (p == null || !problems.isEmpty()) {
            return;
        }
        SetQosProfileCommand c = new SetQosProfileCommand(doc.fabric(), p);
        if (c.isNoOp()) {
            return;
        }
        doc.execute(c);
        editor.message(c.description());
    }

    private void assign(AssignQosProfileCommand.Target target) {
        if (shown == null || doc.selection().devices().isEmpty()) {
            return;
        }
        List<Device> devices = new ArrayList<>(doc.selection().devices());
        AssignQosProfileCommand c = new AssignQosProfileCommand(doc.fabric(), shown.name(), devices, target);
        doc.execute(c);
        editor.message(c.description());
    }

    private void updateButtons() {
        QosProfile p = edited();
        boolean dirty = p != null && !p.equals(shown);
        apply.setDisable(p == null || !problems.isEmpty() || !dirty);
        revert.setDisable(!dirty && parseProblem == null);
        boolean canAssign = shown != null && !dirty && !doc.selection().devices().isEmpty();
        toDevices.setDisable(!canAssign);
        toPorts.setDisable(!canAssign);
    }

    // ----- the figure beside the headroom ------------------------------------------------------

    /** What topology.HeadroomCalculator needs on the worst linked lossless switch port using the profile. */
    private String headroomText(Fabric f, String name) {
        List<HeadroomCalculator.PortHeadroom> ports = HeadroomCalculator.check(f).stream()
                .filter(h -> name.equals(h.qosProfile())).toList();
        if (ports.isEmpty()) {
            return "Headroom needed: no linked switch port with PFC uses this profile.";
        }
        HeadroomCalculator.PortHeadroom worst = ports.stream()
                .max(java.util.Comparator.comparingLong(h -> h.required().totalBytes())).orElseThrow();
        HeadroomCalculator.Requirement r = worst.required();
        headroomNeeded = r.totalBytes();
        return String.format("Headroom needed (calculator): %,d B per lossless priority on the worst of %d ports using"
                + " this profile, %s (%dG, %s m, MTU %,d B)%s.", r.totalBytes(), ports.size(), worst.port(),
                r.speedGbps(), trim(r.cableLengthM()), r.mtuBytes(), r.extrapolated() ? ", figure extrapolated" : "");
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    // ----- the fields --------------------------------------------------------------------------

    private void read(QosProfile p) {
        values.put("description", p.description() == null ? "" : p.description());
        PfcConfig pfc = p.pfc() == null ? PfcConfig.off() : p.pfc();
        values.put("pfc.enabled", pfc.enabled());
        values.put("pfc.priorities", classes(pfc.priorities()));
        values.put("pfc.xoffBytes", pfc.xoffBytes());
        values.put("pfc.xonBytes", pfc.xonBytes());
        values.put("pfc.headroomBytes", pfc.headroomBytes());
        values.put("pfc.watchdogUs", pfc.watchdogUs());
        values.put("pfc.watchdogAction", pfc.watchdogAction());
        EcnConfig ecn = p.ecn() == null ? EcnConfig.off() : p.ecn();
        values.put("ecn.enabled", ecn.enabled());
        values.put("ecn.markAt", ecn.markAt());
        new TreeMap<>(ecn.classes()).forEach((tc, w) -> {
            values.put(wred(tc, "kminBytes"), w.kminBytes());
            values.put(wred(tc, "kmaxBytes"), w.kmaxBytes());
            values.put(wred(tc, "pmax"), w.pmax());
        });
        DcqcnConfig d = p.dcqcn() == null ? DcqcnConfig.off() : p.dcqcn();
        values.put("dcqcn.enabled", d.enabled());
        values.put("dcqcn.cnpIntervalUs", d.cnpIntervalUs());
        values.put("dcqcn.alphaTimerUs", d.alphaTimerUs());
        values.put("dcqcn.rateIncreaseTimerUs", d.rateIncreaseTimerUs());
        values.put("dcqcn.byteCounterBytes", d.byteCounterBytes());
        values.put("dcqcn.fastRecoverySteps", d.fastRecoverySteps());
        values.put("dcqcn.g", d.g());
        values.put("dcqcn.rateAiMbps", d.rateAiMbps());
        values.put("dcqcn.rateHaiMbps", d.rateHaiMbps());
        values.put("dcqcn.initialAlpha", d.initialAlpha());
        values.put("dcqcn.minRateMbps", d.minRateMbps());
        values.put("dcqcn.minCutIntervalUs", d.minCutIntervalUs());
        values.put("dcqcn.maxCutFraction", d.maxCutFraction());
        BufferConfig b = p.buffer();
        values.put("buffer.poolBytes", b.poolBytes());
        values.put("buffer.mode", b.mode());
        values.put("buffer.staticLimitBytes", b.staticLimitBytes());
        values.put("buffer.alpha", b.alpha());
        values.put("buffer.reservedPerQueueBytes", b.reservedPerQueueBytes());
        SchedulerConfig s = p.scheduler() == null ? SchedulerConfig.defaults() : p.scheduler();
        values.put("scheduler.strictPriorityClasses", classes(s.strictPriorityClasses()));
        values.put("scheduler.dwrrWeights", String.join(", ", s.dwrrWeights().stream().map(String::valueOf).toList()));
    }

    /** The key of a class's WRED field, spelled as the reader's JSON paths spell it. */
    private static String wred(int tc, String field) {
        return "ecn.classes['" + tc + "']." + field;
    }

    private List<PropertySheet.Item> items() {
        List<PropertySheet.Item> out = new ArrayList<>();
        out.add(new Field("description", PROFILE, "Description", "what the profile is for", String.class));
        out.add(new Field("pfc.enabled", PFC, "PFC enabled", "priority flow control (IEEE 802.1Qbb) on or off", Boolean.class));
        out.add(new Field("pfc.priorities", PFC, "Lossless priorities", "comma-separated classes 0-7, usually 3", String.class));
        out.add(new Field("pfc.xoffBytes", PFC, "XOFF (B)", "ingress occupancy at which PAUSE is sent upstream", Long.class));
        out.add(new Field("pfc.xonBytes", PFC, "XON (B)", "occupancy below which the port resumes; below XOFF", Long.class));
        out.add(new Field("pfc.headroomBytes", PFC, "Headroom (B)",
                "reserved per lossless priority for what still arrives after XOFF; see the calculator's figure below",
                Long.class));
        out.add(new Field("pfc.watchdogUs", PFC, "Watchdog (us)", "a queue paused this long is stormed; 0 = off", Long.class));
        out.add(new Field("pfc.watchdogAction", PFC, "Watchdog action", "what the watchdog does with a stormed queue",
                PfcConfig.WatchdogAction.class));
        out.add(new Field("ecn.enabled", ECN, "ECN enabled", "ECN marking on or off", Boolean.class));
        out.add(new Field("ecn.markAt", ECN, "Mark at", "mark on enqueue or dequeue", EcnConfig.MarkingPoint.class));
        for (String k : values.keySet()) {
            if (k.startsWith("ecn.classes['") && k.endsWith("kminBytes")) {
                String tc = k.substring("ecn.classes['".length(), k.indexOf("']"));
                out.add(new Field(wred(Integer.parseInt(tc), "kminBytes"), ECN, "Class " + tc + " Kmin (B)",
                        "queue below which nothing is marked", Long.class));
                out.add(new Field(wred(Integer.parseInt(tc), "kmaxBytes"), ECN, "Class " + tc + " Kmax (B)",
                        "queue at which every packet is marked; above Kmin", Long.class));
                out.add(new Field(wred(Integer.parseInt(tc), "pmax"), ECN, "Class " + tc + " Pmax",
                        "marking probability just below Kmax, above 0 and at most 1", Double.class));
            }
        }
        String[][] dcqcn = {
            {"enabled", "DCQCN enabled", "congestion control on or off (off: senders at line rate)"},
            {"cnpIntervalUs", "CNP interval (us)", "at most one CNP per QP per this interval"},
            {"alphaTimerUs", "Alpha timer (us)", "alpha decays every this long without a CNP"},
            {"rateIncreaseTimerUs", "Rate increase timer (us)", "each expiry counts one T step"},
            {"byteCounterBytes", "Byte counter (B)", "each this many bytes sent counts one BC step"},
            {"fastRecoverySteps", "Fast recovery steps F", "steps of fast recovery before additive increase"},
            {"g", "g", "EWMA gain of alpha"},
            {"rateAiMbps", "R_AI (Mb/s)", "additive increase step"},
            {"rateHaiMbps", "R_HAI (Mb/s)", "hyper increase step"},
            {"initialAlpha", "Initial alpha", "alpha of a new QP"},
            {"minRateMbps", "Rmin (Mb/s)", "floor of the sending rate"},
            {"minCutIntervalUs", "Min cut interval (us)", "a new cut at most once per this interval; 0 = every CNP"},
            {"maxCutFraction", "Max cut fraction", "largest single cut of the rate (0.5 = halve)"},
        };
        for (String[] d : dcqcn) {
            String key = "dcqcn." + d[0];
            out.add(new Field(key, DCQCN, d[1], d[2], values.get(key).getClass()));
        }
        out.add(new Field("buffer.poolBytes", BUFFER, "Shared pool (B)", "the switch's shared packet buffer", Long.class));
        out.add(new Field("buffer.mode", BUFFER, "Threshold mode", "STATIC limit or DYNAMIC alpha x free pool",
                BufferConfig.ThresholdMode.class));
        out.add(new Field("buffer.staticLimitBytes", BUFFER, "Static limit (B)", "per-queue limit in STATIC mode", Long.class));
        out.add(new Field("buffer.alpha", BUFFER, "Alpha", "dynamic threshold factor (commonly 1/8 to 8)", Double.class));
        out.add(new Field("buffer.reservedPerQueueBytes", BUFFER, "Reserved per queue (B)",
                "guaranteed minimum per queue outside the pool", Long.class));
        out.add(new Field("scheduler.strictPriorityClasses", SCHEDULER, "Strict-priority classes",
                "comma-separated classes 0-7 served before DWRR", String.class));
        out.add(new Field("scheduler.dwrrWeights", SCHEDULER, "DWRR weights", "8 weights 1-1000, classes 0 to 7",
                String.class));
        return out;
    }

    /** One field of the profile, read and written through {@link #values}. */
    private final class Field extends SheetItem {
        final String key;

        Field(String key, String category, String name, String description, Class<?> type) {
            super(category, name, description + " [" + key + "]", type);
            this.key = key;
        }

        @Override
        public Object getValue() {
            return values.get(key);
        }

        @Override
        public void setValue(Object v) {
            Object old = values.get(key);
            Object now = v;
            if (v instanceof Number n && getType() == Long.class) {
                now = n.longValue();
            } else if (v instanceof Number n && getType() == Integer.class) {
                now = n.intValue();
            } else if (v instanceof Number n && getType() == Double.class) {
                now = n.doubleValue();
            }
            if (now != null && !now.equals(old)) {
                values.put(key, now);
                check();
            }
        }

        @Override
        public Optional<ObservableValue<? extends Object>> getObservableValue() {
            return Optional.empty();
        }
    }

    /** ControlsFX's editors, each with an id ("qos-pfc.xoffBytes") and a validation decoration. */
    private PropertyEditor<?> editorFor(PropertySheet.Item item) {
        PropertyEditor<?> ed = new DefaultPropertyEditorFactory().call(item);
        Node n = ed.getEditor();
        if (item.getType().isEnum() && n instanceof javafx.scene.control.ComboBox<?> cb) {
            fileSpelling(cb);
        }
        if (item instanceof Field f && n instanceof Control c) {
            c.setId("qos-" + f.key);
            controls.put(f.key, c);
            if (c instanceof javafx.scene.control.TextInputControl t) {
                // Checked on every keystroke, not only when the field loses focus.
                t.textProperty().addListener((o, a, b) -> typed(f, b));
            }
            try {
                validation.registerValidator(c, false, (Control ctl, Object v) -> resultFor(ctl, f.key));
            } catch (IllegalArgumentException e) {
                // A control ValidationSupport cannot read (none of ControlsFX's own editors): the problem list still shows it.
            }
        }
        return ed;
    }

    /**
     * Enum choices as fabric files spell them ("drop", "dynamic"; docs/format.md), not as Java names
     * ("DROP"), so what the editor shows is what the user reads in the file.
     */
    @SuppressWarnings("unchecked")
    static <T> void fileSpelling(javafx.scene.control.ComboBox<T> cb) {
        cb.setConverter(new javafx.util.StringConverter<T>() {
            @Override
            public String toString(T v) {
                return v instanceof Enum<?> e ? e.name().toLowerCase(java.util.Locale.ROOT)
                        : v == null ? "" : v.toString();
            }

            @Override
            public T fromString(String s) {
                for (T v : cb.getItems()) {
                    if (toString(v).equals(s)) {
                        return v;
                    }
                }
                return null;
            }
        });
    }

    /** A keystroke in a text field: the value as typed, or what is wrong with the text. */
    private void typed(Field f, String text) {
        if (f.getType() == String.class) {
            f.setValue(text);
            return;
        }
        String t = text == null ? "" : text.trim();
        try {
            Number n = f.getType() == Double.class ? (Number) Double.parseDouble(t)
                    : f.getType() == Integer.class ? (Number) Integer.parseInt(t) : (Number) Long.parseLong(t);
            textProblems.remove(f.key);
            values.put(f.key, n);
        } catch (NumberFormatException e) {
            textProblems.put(f.key, "\"" + t + "\" is not " + (f.getType() == Double.class ? "a number" : "a whole number"));
        }
        check();
    }

    private ValidationResult resultFor(Control c, String key) {
        if (key.equals(parseProblemKey)) {
            return ValidationResult.fromError(c, parseProblem);
        }
        for (InputProblem p : problems) {
            if (matches(p, key)) {
                return ValidationResult.fromError(c, p.message() + (p.allowed() == null ? "" : "; allowed: " + p.allowed()));
            }
        }
        if (key.equals("pfc.headroomBytes") && headroomNeeded > 0 && values.get(key) instanceof Long h && h < headroomNeeded) {
            return ValidationResult.fromWarning(c,
                    String.format("below the %,d B the headroom calculator needs on the worst port", headroomNeeded));
        }
        return new ValidationResult();
    }

    private boolean matches(InputProblem p, String key) {
        String prefix = QosProfileCheck.path(shown == null ? "" : shown.name()) + ".";
        String path = p.jsonPath();
        if (!path.startsWith(prefix)) {
            return false;
        }
        String rest = path.substring(prefix.length());
        return rest.equals(key) || rest.startsWith(key + "[") || rest.startsWith(key + ".");
    }

    // ----- checking as you type ----------------------------------------------------------------

    /** The profile the fields describe, or null when a text field does not parse (then {@link #parseProblem} says why). */
    QosProfile edited() {
        if (shown == null) {
            return null;
        }
        parseProblem = null;
        parseProblemKey = null;
        if (!textProblems.isEmpty()) {
            var first = textProblems.entrySet().iterator().next();
            parseProblemKey = first.getKey();
            parseProblem = first.getValue();
            return null;
        }
        Set<Integer> priorities = parseClasses("pfc.priorities");
        Set<Integer> strict = parseClasses("scheduler.strictPriorityClasses");
        List<Integer> weights = parseInts("scheduler.dwrrWeights");
        if (priorities == null || strict == null || weights == null) {
            return null;
        }
        PfcConfig pfc = new PfcConfig(bool("pfc.enabled"), priorities, lng("pfc.xoffBytes"), lng("pfc.xonBytes"),
                lng("pfc.headroomBytes"), lng("pfc.watchdogUs"), (PfcConfig.WatchdogAction) values.get("pfc.watchdogAction"));
        Map<Integer, WredEcn> classes = new TreeMap<>();
        for (String k : values.keySet()) {
            if (k.startsWith("ecn.classes['") && k.endsWith("kminBytes")) {
                int tc = Integer.parseInt(k.substring("ecn.classes['".length(), k.indexOf("']")));
                classes.put(tc, new WredEcn(lng(wred(tc, "kminBytes")), lng(wred(tc, "kmaxBytes")), dbl(wred(tc, "pmax"))));
            }
        }
        EcnConfig ecn = new EcnConfig(bool("ecn.enabled"), classes, (EcnConfig.MarkingPoint) values.get("ecn.markAt"));
        DcqcnConfig d = new DcqcnConfig(bool("dcqcn.enabled"), dbl("dcqcn.cnpIntervalUs"), dbl("dcqcn.alphaTimerUs"),
                dbl("dcqcn.rateIncreaseTimerUs"), lng("dcqcn.byteCounterBytes"), (Integer) values.get("dcqcn.fastRecoverySteps"),
                dbl("dcqcn.g"), dbl("dcqcn.rateAiMbps"), dbl("dcqcn.rateHaiMbps"), dbl("dcqcn.initialAlpha"),
                dbl("dcqcn.minRateMbps"), dbl("dcqcn.minCutIntervalUs"), dbl("dcqcn.maxCutFraction"))
                .withClamps(shown.dcqcn() == null || shown.dcqcn().clampTargetRate(),
                        shown.dcqcn() != null && shown.dcqcn().clampTargetAfterTimeIncrease());
        BufferConfig b = new BufferConfig(lng("buffer.poolBytes"), (BufferConfig.ThresholdMode) values.get("buffer.mode"),
                lng("buffer.staticLimitBytes"), dbl("buffer.alpha"), lng("buffer.reservedPerQueueBytes"));
        return new QosProfile(shown.name(), (String) values.get("description"), pfc, ecn, d, b,
                new SchedulerConfig(strict, weights));
    }

    /** Re-checks the edited profile, updates the decorations, the problem list and the buttons. */
    private void check() {
        QosProfile p = edited();
        problems = p == null ? List.of() : QosProfileCheck.problems(p);
        List<String> lines = new ArrayList<>();
        if (parseProblem != null) {
            lines.add(parseProblemKey + ": " + parseProblem);
        }
        for (InputProblem ip : problems) {
            lines.add(ip.jsonPath() + ": " + ip.message() + (ip.allowed() == null ? "" : "; allowed: " + ip.allowed()));
        }
        problemList.getItems().setAll(lines);
        validation.revalidate();
        updateButtons();
    }

    /** The problems of the edited profile as the reader words them (for tests and the list). */
    List<String> problemLines() {
        return List.copyOf(problemList.getItems());
    }

    /** The editor control of a field (tests type into it). */
    Control control(String key) {
        return controls.get(key);
    }

    ValidationSupport validation() {
        return validation;
    }

    private boolean bool(String k) {
        return Boolean.TRUE.equals(values.get(k));
    }

    private long lng(String k) {
        return ((Number) values.get(k)).longValue();
    }

    private double dbl(String k) {
        return ((Number) values.get(k)).doubleValue();
    }

    private static String classes(Set<Integer> s) {
        return String.join(", ", new TreeSet<>(s).stream().map(String::valueOf).toList());
    }

    private Set<Integer> parseClasses(String key) {
        List<Integer> l = parseInts(key);
        return l == null ? null : new java.util.LinkedHashSet<>(l);
    }

    private List<Integer> parseInts(String key) {
        String text = String.valueOf(values.get(key)).trim();
        List<Integer> out = new ArrayList<>();
        if (text.isEmpty()) {
            return out;
        }
        for (String part : text.split("[,\\s]+")) {
            try {
                out.add(Integer.parseInt(part));
            } catch (NumberFormatException e) {
                parseProblemKey = key;
                parseProblem = "\"" + part + "\" is not a whole number; write numbers separated by commas";
                return null;
            }
        }
        return out;
    }
}
