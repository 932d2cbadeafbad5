package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.fabriclab.edit.AddPortsCommand;
import io.fabriclab.edit.FabricCommand;
import io.fabriclab.edit.RemovePortsCommand;
import io.fabriclab.edit.SetPortsCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.control.cell.ChoiceBoxTableCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * The ports of the device in the inspector, editable (issue 16 item 8): add free ports (a full
 * template spine can grow), remove free ones, set a port's speed and its own QoS profile. Every
 * change is a command on the document's stack ({@link AddPortsCommand}, {@link RemovePortsCommand},
 * {@link SetPortsCommand}), so Undo takes it back; a change the model refuses is said in the
 * message line, never half-applied.
 */
final class PortTable extends VBox {
    /** Shown for a port without a QoS profile of its own (it inherits the device's). */
    static final String INHERIT = "(device)";
    private static final List<Integer> SPEEDS = List.of(10, 25, 40, 50, 100, 200, 400, 800, 1600);

    private final FabricDocument doc;
    private final Consumer<String> messages;
    private final TableView<Port> table = new TableView<>();
    final Spinner<Integer> addCount = new Spinner<>(1, io.fabriclab.model.FabricLimits.MAX_PORTS_PER_DEVICE, 1);
    final ChoiceBox<Integer> addSpeed = new ChoiceBox<>(FXCollections.observableArrayList(SPEEDS));
    final Button add = new Button("Add");
    final Button remove = new Button("Remove selected");
    private final Label problem = new Label();
    private Device device;

    PortTable(FabricDocument doc, Consumer<String> messages) {
        super(4);
        this.doc = doc;
        this.messages = messages;
        setId("port-table");
        setPadding(new Insets(4, 6, 6, 6));
        table.setEditable(true);
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPrefHeight(220);
        table.setPlaceholder(new Label("no ports"));

        TableColumn<Port, String> name = new TableColumn<>("Port");
        name.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().name()));
        name.setPrefWidth(60);
        TableColumn<Port, Integer> speed = new TableColumn<>("Gb/s");
        speed.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().speedGbps()));
        speed.setCellFactory(ChoiceBoxTableCell.forTableColumn(FXCollections.observableArrayList(SPEEDS)));
        speed.setOnEditCommit(e -> setSpeed(e.getRowValue(), e.getNewValue()));
        speed.setPrefWidth(60);
        TableColumn<Port, String> qos = new TableColumn<>("QoS");
        qos.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().qosProfile() == null ? INHERIT
                : c.getValue().qosProfile()));
        qos.setCellFactory(col -> new ChoiceBoxTableCell<>(identity(), FXCollections.observableArrayList()) {
            @Override
            public void startEdit() {
                getItems().setAll(qosChoices());
                super.startEdit();
            }
        });
        qos.setOnEditCommit(e -> setQos(e.getRowValue(), e.getNewValue()));
        qos.setPrefWidth(90);
        TableColumn<Port, String> link = new TableColumn<>("Cabled to");
        link.setCellValueFactory(c -> new ReadOnlyStringWrapper(farEnd(c.getValue())));
        link.setEditable(false);
        table.getColumns().setAll(List.of(name, speed, qos, link));

        addCount.setEditable(true);
        addCount.setPrefWidth(64);
        addCount.setId("port-add-count");
        addSpeed.setId("port-add-speed");
        add.setId("port-add");
        remove.setId("port-remove");
        add.setTooltip(new Tooltip("add free ports after the last one (eth N+1.., on a server nic K+1..)"));
        remove.setTooltip(new Tooltip("remove the selected ports; a port with a cable must lose its link first"));
        add.setOnAction(e -> addPorts());
        remove.setOnAction(e -> removeSelected());
        remove.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        // Fits the inspector's 300 px: count × speed, then the button that adds them.
        HBox addRow = new HBox(4, addCount, new Label("×"), addSpeed, new Label("G"), add);
        addRow.setAlignment(Pos.CENTER_LEFT);
        HBox removeRow = new HBox(6, remove);
        problem.setWrapText(true);
        problem.setStyle("-fx-text-fill: #b00020;");
        problem.setManaged(false);
        Label header = new Label("Ports (double-click a speed or QoS cell to change it)");
        header.setStyle("-fx-font-weight: bold;");
        header.setWrapText(true);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().addAll(header, table, addRow, removeRow, problem);
    }

    TableView<Port> table() {
        return table;
    }

    /** Shows the ports of this device (null hides the table's content). */
    void show(Device d) {
        if (d != device) {
            problem.setText("");
            problem.setManaged(false);
            if (d != null && !d.ports().isEmpty()) {
                // New ports default to the speed of the device's last port (a spine's uplink speed).
                addSpeed.setValue(d.ports().get(d.ports().size() - 1).speedGbps());
            } else {
                addSpeed.setValue(400);
            }
        }
        device = d;
        table.getItems().setAll(d == null ? List.of() : d.ports());
        table.refresh();
    }

    private Fabric fabric() {
        return doc.fabric();
    }

    private List<String> qosChoices() {
        List<String> c = new ArrayList<>();
        c.add(INHERIT);
        c.addAll(fabric().qosProfiles().keySet());
        return c;
    }

    private String farEnd(Port p) {
        Link l = fabric().linkAt(p);
        if (l == null) {
            return "free";
        }
        return (l.a() == p ? l.b() : l.a()).ref();
    }

    void addPorts() {
        if (device == null) {
            return;
        }
        run(() -> new AddPortsCommand(fabric(), device, addCount.getValue(), addSpeed.getValue()));
    }

    void removeSelected() {
        List<Port> sel = List.copyOf(table.getSelectionModel().getSelectedItems());
        if (!sel.isEmpty()) {
            run(() -> new RemovePortsCommand(fabric(), sel));
        }
    }

    void setSpeed(Port p, Integer gbps) {
        if (gbps != null && gbps != p.speedGbps()) {
            run(() -> SetPortsCommand.speed(fabric(), List.of(p), gbps));
        }
    }

    void setQos(Port p, String choice) {
        String profile = choice == null || choice.equals(INHERIT) ? null : choice;
        SetPortsCommand c = SetPortsCommand.qos(fabric(), List.of(p), profile);
        if (!c.isNoOp()) {
            run(() -> c);
        }
    }

    /** Builds and runs one command; a refusal (bad count, port in use...) is shown, nothing changes. */
    private void run(java.util.function.Supplier<FabricCommand> make) {
        try {
            FabricCommand c = make.get();
            doc.execute(c);
            problem.setText("");
            problem.setManaged(false);
            messages.accept(c.description());
        } catch (IllegalArgumentException | IllegalStateException ex) {
            problem.setText(ex.getMessage());
            problem.setManaged(true);
            messages.accept(ex.getMessage());
        }
        show(device);
    }

    private static StringConverter<String> identity() {
        return new StringConverter<>() {
            @Override
            public String toString(String s) {
                return s;
            }

            @Override
            public String fromString(String s) {
                return s;
            }
        };
    }
}
