package io.fabriclab.ui;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.FabricLimits;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.FatTreeGenerator;
import io.fabriclab.topology.FatTreeParams;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;
import io.fabriclab.topology.Oversubscription;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;
import javafx.animation.PauseTransition;
import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * File > New from Template: the parameters of the three generators (leaf-spine, rail-optimized,
 * fat tree) and a live preview of what they make (switches, cables, servers, GPUs,
 * oversubscription) before anything is created. The preview generates the fabric off the FX
 * thread (a 16,384-GPU one takes about a second) and OK hands over exactly that fabric.
 */
final class TemplateDialog {
    /** What the generator made and its counts, for the preview and the caller. */
    record Generated(String kind, Fabric fabric, FabricAnalysis.Counts counts, String oversubscription) {
    }

    private final Dialog<ButtonType> dialog = new Dialog<>();
    private final TabPane tabs = new TabPane();
    private final Label preview = new Label("…");
    private final PauseTransition debounce = new PauseTransition(Duration.millis(250));
    private Generated current;
    private long requestNo;

    // Leaf-spine.
    final Spinner<Integer> lsLeaves = spinner("ls-leaves", 1, 512, 4);
    final Spinner<Integer> lsSpines = spinner("ls-spines", 1, 128, 2);
    final Spinner<Integer> lsServers = spinner("ls-servers", 1, 256, 8);
    final Spinner<Integer> lsNics = spinner("ls-nics", 1, 16, 1);
    final ChoiceBox<Integer> lsNicSpeed = speeds("ls-nic-speed", 100);
    final Spinner<Integer> lsUplinks = spinner("ls-uplinks", 1, 64, 1);
    final ChoiceBox<Integer> lsUplinkSpeed = speeds("ls-uplink-speed", 400);
    /** Ports per switch; 0 builds every switch with exactly the ports it uses (no room to grow). */
    final Spinner<Integer> lsRadix = spinner("ls-radix", 0, FabricLimits.MAX_PORTS_PER_DEVICE, 0);
    // Rail-optimized.
    final Spinner<Integer> railUnits = spinner("rail-units", 1, 256, 4);
    final Spinner<Integer> railServers = spinner("rail-servers", 1, 512, RailParams.DEFAULT_SERVERS_PER_UNIT);
    final Spinner<Integer> railGpus = spinner("rail-gpus", 1, 16, RailParams.DEFAULT_GPUS_PER_SERVER);
    final Spinner<Integer> railRadix = spinner("rail-radix", 4, 1024, RailParams.DEFAULT_RADIX);
    final ChoiceBox<Integer> railSpeed = speeds("rail-speed", RailParams.DEFAULT_SPEED_GBPS);
    final Spinner<Integer> railUplinks = spinner("rail-uplinks", 1, 1024, RailParams.DEFAULT_SERVERS_PER_UNIT);
    // Fat tree.
    final Spinner<Integer> ftK = spinner("ft-k", 2, 64, 8);
    final ChoiceBox<Integer> ftSpeed = speeds("ft-speed", 400);
    final Spinner<Integer> ftSpare = spinner("ft-spare", 0, FabricLimits.MAX_PORTS_PER_DEVICE - 2, 0);
    /** Every generated server's GPU, which gives its NVLink / NVSwitch scale-up domain (all three kinds). */
    final ChoiceBox<ScaleUp> gpu = gpuChoice();

    TemplateDialog(Window owner) {
        dialog.setTitle("New from template");
        dialog.setHeaderText("Generate a fabric. The preview shows what it will contain; nothing changes until OK\n"
                + "(and OK is one undo step).");
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.setResizable(true);
        tabs.setId("template-kind");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getTabs().addAll(
                tab("Leaf-spine", "two tiers: every leaf to every spine",
                        row("Leaves", lsLeaves), row("Spines", lsSpines), row("Servers per leaf", lsServers),
                        row("NICs per server", lsNics), row("NIC speed (Gb/s)", lsNicSpeed),
                        row("Uplinks per leaf-spine pair", lsUplinks), row("Uplink speed (Gb/s)", lsUplinkSpeed),
                        row("Switch radix (ports; 0 = only those used)", lsRadix)),
                tab("Rail-optimized", "scalable units; NIC k of every server to the unit's rail-k leaf",
                        row("Scalable units", railUnits), row("Servers per unit", railServers),
                        row("GPUs (= NICs, rails) per server", railGpus), row("Switch radix (ports)", railRadix),
                        row("Link speed (Gb/s)", railSpeed), row("Uplinks per leaf", railUplinks)),
                tab("Fat tree", "k-ary three-tier fat tree (Al-Fares et al. 2008)",
                        row("k (ports in use, even)", ftK), row("Link speed (Gb/s)", ftSpeed),
                        row("Spare ports per switch", ftSpare)));
        preview.setId("template-preview");
        preview.setWrapText(true);
        preview.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        preview.setPrefHeight(96);
        preview.setPadding(new Insets(8, 0, 0, 0));
        javafx.scene.layout.HBox gpuRow = new javafx.scene.layout.HBox(10, new Label("GPU (every server)"), gpu);
        gpuRow.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        VBox box = new VBox(8, tabs, gpuRow, preview);
        box.setPrefWidth(520);
        dialog.getDialogPane().setContent(box);
        // Never smaller than its content: under Openbox with a maximised owner, GTK hands the new
        // window a size without the tab pane (671x213, seen with JavaFX 25 and 26; tools/wm-check.sh).
        dialog.getDialogPane().setMinSize(javafx.scene.layout.Region.USE_PREF_SIZE,
                javafx.scene.layout.Region.USE_PREF_SIZE);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.CANCEL, ButtonType.OK);
        dialog.getDialogPane().lookupButton(ButtonType.OK).setDisable(true);
        dialog.getDialogPane().lookupButton(ButtonType.OK).setId("template-ok");
        debounce.setOnFinished(e -> regenerate());
        tabs.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> changed());
        for (Spinner<Integer> s : List.of(lsLeaves, lsSpines, lsServers, lsNics, lsUplinks, railUnits, railServers,
                railGpus, railRadix, railUplinks, ftK, lsRadix, ftSpare)) {
            s.valueProperty().addListener((o, a, b) -> changed());
        }
        for (ChoiceBox<Integer> c : List.of(lsNicSpeed, lsUplinkSpeed, railSpeed, ftSpeed)) {
            c.valueProperty().addListener((o, a, b) -> changed());
        }
        gpu.valueProperty().addListener((o, a, b) -> changed());
        regenerate();
    }

    /** Shows the dialog without blocking; {@code onOk} receives the previewed fabric. */
    void show(Consumer<Generated> onOk) {
        dialog.setOnHidden(e -> {
            if (dialog.getResult() == ButtonType.OK && current != null) {
                onOk.accept(current);
            }
        });
        dialog.show();
    }

    Dialog<ButtonType> dialog() {
        return dialog;
    }

    /** Selects the generator tab: 0 leaf-spine, 1 rail-optimized, 2 fat tree. */
    void selectKind(int index) {
        tabs.getSelectionModel().select(index);
    }

    /** The last finished preview (null while the first one runs). */
    Generated current() {
        return current;
    }

    private void changed() {
        // A preview still being computed is for the old parameters: it must neither show nor be used.
        requestNo++;
        current = null;
        dialog.getDialogPane().lookupButton(ButtonType.OK).setDisable(true);
        preview.setText("generating…");
        debounce.playFromStart();
    }

    /** The generator call for the parameters shown now; throws IllegalArgumentException for impossible ones. */
    private Supplier<Generated> request() {
        int kind = tabs.getSelectionModel().getSelectedIndex();
        if (kind == 1) {
            RailParams p = new RailParams(railUnits.getValue(), railServers.getValue(), railGpus.getValue(),
                    railRadix.getValue(), railSpeed.getValue(), RailParams.DEFAULT_SERVER_CABLE_M,
                    RailParams.DEFAULT_LEAF_SPINE_CABLE_M, RailParams.DEFAULT_SPINE_CORE_CABLE_M, railUplinks.getValue(), 1,
                    gpu.getValue());
            return () -> describe("rail-optimized " + p.units() + " units", RailOptimizedGenerator.generate(p));
        }
        if (kind == 2) {
            FatTreeParams p = FatTreeParams.of(ftK.getValue());
            FatTreeParams q = new FatTreeParams(p.k(), ftSpeed.getValue(), p.hostCableM(), p.edgeAggCableM(),
                    p.aggCoreCableM(), ftSpare.getValue(), gpu.getValue());
            return () -> describe("fat tree k=" + q.k(), FatTreeGenerator.generate(q));
        }
        LeafSpineParams p = new LeafSpineParams(lsLeaves.getValue(), lsSpines.getValue(), lsServers.getValue(),
                lsNics.getValue(), lsNicSpeed.getValue(), lsUplinks.getValue(), lsUplinkSpeed.getValue(), 3.0, 30.0,
                lsRadix.getValue() == 0 ? null : lsRadix.getValue(), gpu.getValue());
        return () -> describe("leaf-spine " + p.leaves() + "x" + p.spines(), LeafSpineGenerator.generate(p));
    }

    static Generated describe(String kind, Fabric f) {
        new TieredLayout().placeMissing(f, f.layout());
        FabricAnalysis.Counts c = FabricAnalysis.Counts.of(f);
        Oversubscription o = Oversubscription.of(f);
        StringBuilder over = new StringBuilder();
        o.findWorstLeaf().ifPresent(w -> over.append("worst leaf ").append(w.label()));
        for (Oversubscription.TierRatio t : o.tiers()) {
            over.append(over.length() > 0 ? ", " : "").append("tier ").append(t.tier()).append(' ').append(t.label());
        }
        return new Generated(kind, f, c, over.length() == 0 ? "n/a" : over.toString());
    }

    private void regenerate() {
        long no = ++requestNo;
        Supplier<Generated> gen;
        try {
            gen = request();
        } catch (IllegalArgumentException ex) {
            current = null;
            preview.setText("Cannot build this: " + ex.getMessage());
            preview.setStyle("-fx-text-fill: #b00020;");
            return;
        }
        Task<Generated> t = new BackgroundTasks.Job<>() {
            @Override
            protected Generated work() throws Exception {
                Generated g = gen.get();
                // What New from Template builds must be a fabric FabricLab can save and read back.
                io.fabriclab.io.FabricFiles.checkReadable(g.fabric(), "the template");
                return g;
            }
        };
        t.setOnSucceeded(e -> {
            if (no != requestNo) {
                return; // a newer request is on its way
            }
            current = t.getValue();
            preview.setStyle("");
            preview.setText(previewText(current));
            dialog.getDialogPane().lookupButton(ButtonType.OK).setDisable(false);
        });
        t.setOnFailed(e -> {
            if (no == requestNo) {
                current = null;
                preview.setText("Cannot build this: " + t.getException().getMessage());
                preview.setStyle("-fx-text-fill: #b00020;");
            }
        });
        BackgroundTasks.shared().execute(t, "Previewing the template");
    }

    static String previewText(Generated g) {
        FabricAnalysis.Counts c = g.counts();
        StringBuilder roles = new StringBuilder();
        for (Map.Entry<DeviceRole, Integer> e : c.switchesByRole().entrySet()) {
            roles.append(roles.length() > 0 ? ", " : "").append(e.getValue()).append(' ').append(e.getKey().jsonName());
        }
        ScaleUp s = g.fabric().servers().isEmpty() ? null : g.fabric().servers().get(0).scaleUp();
        return String.format(java.util.Locale.ROOT,
                "Switches: %,d (%s)%nCables: %,d · free switch ports: %,d%nServers: %,d · NICs: %,d · GPUs: %,d%s%n"
                        + "Oversubscription: %s",
                c.switches(), roles, c.links(), freeSwitchPorts(g.fabric()), c.servers(), c.nics(), c.gpus(),
                s == null ? "" : " " + s.gpu() + " (" + s.summary() + ")",
                g.oversubscription());
    }

    /** Switch ports without a cable: the room the fabric has to grow without new switches. */
    static long freeSwitchPorts(Fabric f) {
        long free = 0;
        for (var d : f.switches()) {
            free += d.portCount() - f.linksOf(d).size();
        }
        return free;
    }

    private static Spinner<Integer> spinner(String id, int min, int max, int value) {
        Spinner<Integer> s = new Spinner<>(min, max, value);
        s.setEditable(true);
        s.setId(id);
        s.setPrefWidth(110);
        return s;
    }

    private static ChoiceBox<ScaleUp> gpuChoice() {
        ChoiceBox<ScaleUp> c = new ChoiceBox<>();
        c.getItems().addAll(ScaleUp.known());
        c.setValue(ScaleUp.DEFAULT);
        c.setId("template-gpu");
        c.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(ScaleUp s) {
                return s == null ? "" : s.gpu() + " · " + s.technology() + " · " + s.bandwidthText() + " GB/s";
            }

            @Override
            public ScaleUp fromString(String text) {
                return ScaleUp.of(text);
            }
        });
        return c;
    }

    private static ChoiceBox<Integer> speeds(String id, int value) {
        ChoiceBox<Integer> c = new ChoiceBox<>();
        c.getItems().addAll(25, 50, 100, 200, 400, 800, 1600);
        c.setValue(value);
        c.setId(id);
        return c;
    }

    private static Object[] row(String label, javafx.scene.Node control) {
        return new Object[] {new Label(label), control};
    }

    private static Tab tab(String title, String hint, Object[]... rows) {
        GridPane g = new GridPane();
        g.setHgap(10);
        g.setVgap(6);
        g.setPadding(new Insets(10));
        Label h = new Label(hint);
        h.setStyle("-fx-text-fill: #52606d;");
        g.add(h, 0, 0, 2, 1);
        for (int i = 0; i < rows.length; i++) {
            g.addRow(i + 1, (javafx.scene.Node) rows[i][0], (javafx.scene.Node) rows[i][1]);
        }
        return new Tab(title, g);
    }
}
