package io.fabriclab.ui.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.fabriclab.model.Device;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.sim.SimSnapshot;
import io.fabriclab.ui.FabricCanvas;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * The live panel's "Selection" section: the flows crossing a clicked link direction or sent,
 * received or carried by a selected device, a selected flow's path, a collective's progress, and
 * the charts of a port, flow and collective over the recording. Follows the canvas selection and
 * the picture {@link LiveViewModel} shows; the selected flow and collective live in the model.
 */
final class LiveSelectionPane extends VBox {
    /** Throughput in the flow list is measured over this much simulated time. */
    static final long ACHIEVED_WINDOW_PS = 20_000_000L;

    private final FabricCanvas canvas;
    private final LiveViewModel model;

    final ComboBox<String> chartPort = new ComboBox<>();
    final Spinner<Integer> flowSelect = new Spinner<>();
    /** What the flow list lists: a link direction, or what a device sends / receives / carries. */
    final ComboBox<FlowScope> flowScope = new ComboBox<>();
    final ComboBox<CrossingFlows.Order> flowOrder = new ComboBox<>();
    final TableView<CrossingFlows.Row> flowTable = new TableView<>();
    final Label flowPath = new Label();
    /** Says when the run routes per packet, so a flow's published path is one of several. */
    final Label flowNote = new Label();
    final ComboBox<String> collectiveSelect = new ComboBox<>();
    final Label collectiveStatus = new Label();
    final LiveCharts charts = new LiveCharts();
    private boolean updatingFlowTable;
    private long lastChartNanos;
    private double pressX = Double.NaN;
    private double pressY = Double.NaN;
    /** The link last clicked (to select it) and whether the click was on its a → b side. */
    private Link clickedLink;
    private boolean clickedFromA = true;

    /**
     * What the flow list shows: flows leaving through egress port {@code portRef} (a link
     * direction), or flows device {@code device} sends and/or receives (a server) or carries (a
     * switch: both flags set).
     */
    record FlowScope(String text, String portRef, String device, boolean sends, boolean receives) {
        @Override
        public String toString() {
            return text;
        }
    }

    LiveSelectionPane(FabricCanvas canvas, LiveViewModel model) {
        super(6);
        this.canvas = canvas;
        this.model = model;
        chartPort.setPromptText("egress port");
        chartPort.setOnAction(e -> refreshCharts(true));
        flowSelect.setValueFactory(flowIds());
        flowSelect.setEditable(true);
        flowSelect.setId("live-flow");
        flowSelect.valueProperty().addListener((o, a, b) -> model.selectedFlow.set(b == null ? -1 : b));
        model.selectedFlow.addListener((o, a, b) -> {
            if (!java.util.Objects.equals(flowSelect.getValue(), b.intValue())) {
                flowSelect.getValueFactory().setValue(b.intValue());
            }
            refreshCharts(true);
            showFlowPath();
            selectFlowRow();
        });
        buildFlowList();
        collectiveSelect.setId("live-collective");
        collectiveSelect.setPromptText("none");
        collectiveSelect.valueProperty().addListener((o, a, b) -> model.collective.set(b));
        model.collective.addListener((o, a, b) -> {
            if (!java.util.Objects.equals(collectiveSelect.getValue(), b)) {
                collectiveSelect.setValue(b);
            }
            refreshCharts(true);
            showCollective();
        });
        collectiveStatus.setWrapText(true);
        collectiveStatus.setId("live-collective-status");
        flowPath.setWrapText(true);
        flowNote.setWrapText(true);
        flowNote.setVisible(false);
        flowNote.setManaged(false);
        flowPath.setId("live-flow-path");
        getChildren().addAll(new HBox(6, new Label("Port"), chartPort),
                new HBox(6, new Label("Flows"), flowScope), new HBox(6, new Label("Sort"), flowOrder), flowTable,
                flowNote, new HBox(6, new Label("Flow"), flowSelect), flowPath,
                new HBox(6, new Label("Collective"), collectiveSelect), collectiveStatus, charts);
        // Where the last press landed, so a click on a link selects the direction on that side.
        canvas.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> {
            pressX = e.getX();
            pressY = e.getY();
        });
        canvas.document().selection().addListener(this::selectionChanged);
        model.addListener(new LiveViewListener() {
            @Override
            public void started(LiveSession s) {
                collectiveSelect.getItems().setAll(s.collectives().keySet());
                boolean perPacket = s.routing().perPacket();
                flowNote.setText(perPacket ? "Routing " + s.routing().mode().jsonName() + " is per packet: the list"
                        + " and the halo follow each flow's ECMP-hashed path; its packets also take the others." : "");
                flowNote.setVisible(perPacket);
                flowNote.setManaged(perPacket);
            }

            @Override
            public void pictureChanged(SimSnapshot s) {
                refreshFlowList();
                showCollective();
                showFlowPath();
                refreshCharts(false);
            }

            @Override
            public void finished() {
                refreshCharts(true);
            }

            @Override
            public void cleared() {
                collectiveSelect.getItems().clear();
                collectiveSelect.setValue(null);
                collectiveStatus.setText("");
                flowTable.getItems().clear();
                flowPath.setText("");
                charts.show(List.of(), -1, -1);
            }
        });
    }

    /** Flow ids from -1 ("none") up; the box shows "none" rather than -1 and accepts it typed. */
    private static SpinnerValueFactory<Integer> flowIds() {
        SpinnerValueFactory.IntegerSpinnerValueFactory f =
                new SpinnerValueFactory.IntegerSpinnerValueFactory(-1, Integer.MAX_VALUE, -1);
        f.setConverter(new StringConverter<>() {
            @Override
            public String toString(Integer v) {
                return v == null || v < 0 ? "none" : String.valueOf(v);
            }

            @Override
            public Integer fromString(String s) {
                String t = s == null ? "" : s.trim();
                if (t.isEmpty() || t.equalsIgnoreCase("none")) {
                    return -1;
                }
                try {
                    return Math.max(-1, Integer.parseInt(t));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        });
        return f;
    }

    private void buildFlowList() {
        flowScope.setId("live-flow-scope");
        flowScope.setPromptText("click a link direction or a device");
        flowScope.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(flowScope, Priority.ALWAYS);
        flowScope.setOnAction(e -> refreshFlowList());
        flowOrder.setId("live-flow-order");
        flowOrder.getItems().setAll(CrossingFlows.Order.values());
        flowOrder.getSelectionModel().select(CrossingFlows.Order.RATE);
        flowOrder.setOnAction(e -> refreshFlowList());
        flowTable.setId("live-flow-table");
        flowTable.setPrefHeight(170);
        flowTable.setPlaceholder(new Label("Click a link direction or a device to list its flows"));
        flowTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY);
        flowTable.getColumns().setAll(List.of(
                column("#", 30, "flow id", r -> String.valueOf(r.flow())),
                column("from → to", 140, "sender and receiver NIC", r -> r.src() + " → " + r.dst()),
                column("rate", 50, "DCQCN current rate (Gb/s)", r -> gbps(r.rateGbps())),
                column("tgt", 50, "DCQCN target rate (Gb/s)", r -> gbps(r.targetGbps())),
                column("got", 50, "throughput achieved over the last 20 µs (Gb/s)", r -> gbps(r.achievedGbps())),
                column("%", 36, "progress: share of its packets delivered in order",
                        r -> String.format(Locale.ROOT, "%.0f", 100 * r.progress()))));
        flowTable.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (!updatingFlowTable && b != null && model.selectedFlow.get() != b.flow()) {
                model.selectedFlow.set(b.flow());
            }
        });
    }

    private static TableColumn<CrossingFlows.Row, String> column(String title, double width, String tip,
            java.util.function.Function<CrossingFlows.Row, String> value) {
        TableColumn<CrossingFlows.Row, String> c = new TableColumn<>();
        Label header = new Label(title);
        header.setTooltip(new javafx.scene.control.Tooltip(tip));
        c.setGraphic(header);
        c.setPrefWidth(width);
        if (width < 100) {
            // Numbers stay narrow, so the constrained policy gives the spare width to "from → to"
            // (the NIC names were cut to "server10:nic0 → server0..." at 1600 px).
            c.setMaxWidth(width * 1.5);
        }
        c.setSortable(false);
        c.setCellValueFactory(d -> new javafx.beans.property.ReadOnlyStringWrapper(value.apply(d.getValue())));
        return c;
    }

    private static String gbps(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
    }

    // ----- canvas selection --------------------------------------------------------------------------

    /** A selecting click on {@code drawn}: remember its side, so the flow list opens on that direction. */
    void linkClicked(Link drawn) {
        clickedLink = drawn;
        clickedFromA = clickedSideIsFromA(drawn);
        var sel = canvas.document().selection();
        if (sel.links().size() == 1 && sel.devices().isEmpty() && sel.links().contains(drawn)) {
            // Already selected: the selection will not change, so refill here.
            fillFlowScopes();
        }
    }

    private void selectionChanged() {
        fillFlowScopes();
        List<String> ports = new ArrayList<>();
        var sel = canvas.document().selection();
        for (Link l : sel.links()) {
            ports.add(l.a().ref());
            ports.add(l.b().ref());
        }
        for (Device d : sel.devices()) {
            for (Port p : d.ports()) {
                if (canvas.document().fabric().linkAt(p) != null) {
                    ports.add(p.ref());
                }
            }
            if (ports.size() > 64) {
                break;
            }
        }
        chartPort.getItems().setAll(ports);
        if (!ports.isEmpty()) {
            // The busiest of the selection first, if a run shows one.
            String best = ports.get(0);
            SimSnapshot shown = model.shownSnapshot();
            if (shown != null) {
                long max = -1;
                for (String p : ports) {
                    int i = shown.portIndex(p);
                    if (i >= 0 && shown.queueBytes()[i] > max) {
                        max = shown.queueBytes()[i];
                        best = p;
                    }
                }
            }
            chartPort.getSelectionModel().select(best);
            Port p = canvas.document().fabric().port(best);
            if (p != null && p.device().role().isSwitch()) {
                if (onSwitchPortSelected != null) {
                    onSwitchPortSelected.accept(best);
                }
            }
        }
        refreshCharts(true);
    }

    private java.util.function.Consumer<String> onSwitchPortSelected;

    /** Told the switch port a selection points at (the thresholds editor fills it in). */
    void setOnSwitchPortSelected(java.util.function.Consumer<String> c) {
        this.onSwitchPortSelected = c;
    }

    void refreshCharts(boolean now) {
        long t = System.nanoTime();
        if (!now && t - lastChartNanos < 250_000_000L) {
            return;
        }
        lastChartNanos = t;
        LiveSession session = model.session();
        if (session == null) {
            return;
        }
        List<SimSnapshot> rec = session.recording().frames();
        if (rec.isEmpty()) {
            return;
        }
        String ref = chartPort.getValue();
        int port = ref == null ? -1 : rec.get(rec.size() - 1).portIndex(ref);
        String c = model.collective.get();
        charts.show(rec, port, model.selectedFlow.get(), session.flows(),
                c == null || model.collectiveMembers().isEmpty() ? null : session.collectiveTrackers().get(c));
    }

    /**
     * The flow list's choices for the canvas selection: both directions of a selected link (the
     * one on the side that was clicked first: each direction is drawn right of its travel), or
     * what a selected server sends / receives, or what a switch carries.
     */
    private void fillFlowScopes() {
        var sel = canvas.document().selection();
        List<FlowScope> scopes = new ArrayList<>();
        if (sel.links().size() == 1 && sel.devices().isEmpty()) {
            Link l = sel.links().iterator().next();
            FlowScope ab = new FlowScope(l.a().ref() + " → " + l.b().ref(), l.a().ref(), null, false, false);
            FlowScope ba = new FlowScope(l.b().ref() + " → " + l.a().ref(), l.b().ref(), null, false, false);
            boolean fromA = l != clickedLink || clickedFromA;
            scopes.add(fromA ? ab : ba);
            scopes.add(fromA ? ba : ab);
        } else if (!sel.devices().isEmpty()) {
            Device d = sel.devices().iterator().next();
            if (d.role().isSwitch()) {
                scopes.add(new FlowScope("through " + d.id() + " (any port)", null, d.id(), true, true));
            } else {
                scopes.add(new FlowScope("sent or received by " + d.id(), null, d.id(), true, true));
                scopes.add(new FlowScope("sent by " + d.id(), null, d.id(), true, false));
                scopes.add(new FlowScope("received by " + d.id(), null, d.id(), false, true));
            }
        }
        flowScope.getItems().setAll(scopes);
        if (!scopes.isEmpty()) {
            flowScope.getSelectionModel().select(0);
        }
        refreshFlowList();
    }

    /** True when the last press was on the a → b side of the link (right of travel from a to b). */
    private boolean clickedSideIsFromA(Link l) {
        io.fabriclab.diagram.Segment seg = canvas.geometry().segment(l);
        if (seg == null || Double.isNaN(pressX)) {
            return true;
        }
        double wx = canvas.viewport().toWorldX(pressX);
        double wy = canvas.viewport().toWorldY(pressY);
        // Screen y grows downwards: the right-hand normal of travel (dx, dy) is (-dy, dx).
        double nx = -(seg.y2() - seg.y1());
        double ny = seg.x2() - seg.x1();
        return (wx - seg.x1()) * nx + (wy - seg.y1()) * ny >= 0;
    }

    /** Lists the flows of the chosen scope at the snapshot shown, sorted as chosen; keeps the selected flow. */
    void refreshFlowList() {
        FlowScope scope = flowScope.getValue();
        LiveSession session = model.session();
        SimSnapshot s = model.shownSnapshot();
        if (session == null || s == null || scope == null) {
            flowTable.getItems().clear();
            return;
        }
        List<Integer> ids = scope.portRef() != null ? CrossingFlows.crossing(s, s.portIndex(scope.portRef()))
                : CrossingFlows.ofDevice(s, scope.device(), scope.sends(), scope.receives());
        SimSnapshot earlier = session.recording().at(s.timePs() - ACHIEVED_WINDOW_PS);
        if (earlier != null && earlier.timePs() >= s.timePs()) {
            earlier = model.previousShown();
        }
        List<CrossingFlows.Row> rows = CrossingFlows.rows(s, earlier, session.flows(), ids, flowOrder.getValue());
        updatingFlowTable = true;
        try {
            flowTable.getItems().setAll(rows);
            selectFlowRow();
        } finally {
            updatingFlowTable = false;
        }
    }

    private void selectFlowRow() {
        int f = model.selectedFlow.get();
        boolean was = updatingFlowTable;
        updatingFlowTable = true;
        try {
            for (CrossingFlows.Row r : flowTable.getItems()) {
                if (r.flow() == f) {
                    flowTable.getSelectionModel().select(r);
                    return;
                }
            }
            flowTable.getSelectionModel().clearSelection();
        } finally {
            updatingFlowTable = was;
        }
    }

    /** The selected flow's path as the simulator publishes it (its ECMP choice, hop by hop). */
    private void showFlowPath() {
        int f = model.selectedFlow.get();
        SimSnapshot shown = model.shownSnapshot();
        LiveSession session = model.session();
        if (shown == null || f < 0 || f >= shown.flowCount()) {
            flowPath.setText("");
            return;
        }
        String label = session == null || f >= session.flows().size() ? "" : session.flows().get(f).label();
        flowPath.setText(String.format(Locale.ROOT, "Flow %d%s: rate %.1f Gb/s, target %.1f Gb/s, %.0f %% done%npath: %s",
                f, label == null || label.isEmpty() ? "" : " (" + label + ")", shown.flowRateGbps().get(f),
                shown.flowTargetGbps().get(f), 100 * shown.flowProgress().get(f), CrossingFlows.pathText(shown, f)));
    }

    /** The selected collective's progress and bandwidth so far at the snapshot shown. */
    private void showCollective() {
        String c = model.collective.get();
        List<Integer> members = model.collectiveMembers();
        SimSnapshot shown = model.shownSnapshot();
        if (shown == null || c == null || members.isEmpty()) {
            collectiveStatus.setText("");
            return;
        }
        CollectiveProgress p = model.session().collectiveTrackers().get(c).at(shown);
        collectiveStatus.setText(String.format(Locale.ROOT, "%s%n%d flows over %d ranks, %.2f of %.2f MB delivered",
                p.text(), members.size(), p.ranks(), p.bytesDone() / 1e6, p.bytesTotal() / 1e6));
    }
}
