package io.fabriclab.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.fabriclab.edit.SetPropertyCommand;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.LinkState;
import io.fabriclab.model.Port;
import io.fabriclab.routing.EcmpPaths;
import io.fabriclab.routing.Routing;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FailureImpact;
import javafx.scene.control.Label;

/**
 * Fabric menu analyses: Analyze, Check Deadlocks, Fail a Link and the ECMP paths between two NICs.
 * The work runs on the {@link BackgroundTasks} executor over a copy of the fabric; the results are
 * shown (and highlighted on the canvas) on the FX thread.
 */
final class AnalysisActions {
    private final FabricEditor editor;
    private final FabricDocument doc;
    private final FabricCanvas canvas;
    private final BackgroundTasks tasks = BackgroundTasks.shared();
    /** The NIC pair whose ECMP paths are highlighted, or null. */
    private EcmpPaths shownPaths;

    AnalysisActions(FabricEditor editor) {
        this.editor = editor;
        this.doc = editor.document();
        this.canvas = editor.canvas();
    }

    /**
     * Fabric > Analyze: every static analysis (as `fabriclab analyze` prints it) of a copy of the
     * fabric, on a background thread; the result opens in a window you can keep beside the canvas.
     */
    public CompletableFuture<String> analyze() {
        Fabric snapshot = doc.fabric().copy();
        String name = doc.file() == null ? doc.fabric().name() : doc.file().toString();
        editor.message("Analyzing " + doc.fabric().name() + "…");
        return tasks.run("Analyzing " + snapshot.name(), () -> {
            io.fabriclab.topology.FabricAnalysis a = io.fabriclab.topology.FabricAnalysis.run(snapshot,
                    io.fabriclab.topology.FabricAnalysis.Options.defaults(io.fabriclab.io.PriceBookFile.sample()));
            return io.fabriclab.topology.AnalysisText.of(snapshot, name, a, 10);
        }, text -> {
            editor.message("Analysis done");
            editor.dialogs().showReport("Analysis of " + snapshot.name(), text);
        }, ex -> editor.message("Analysis failed: " + ex.getMessage()));
    }

    /**
     * Fabric > Check Deadlocks: the cyclic-buffer-dependency check (topology.DeadlockCheck) on the
     * routing as drawn; the switches and links of every cycle are highlighted and selected.
     */
    public CompletableFuture<DeadlockCheck.Result> checkDeadlocks() {
        Fabric copy = doc.fabric().copy();
        long revision = doc.stack().revision();
        editor.message("Checking " + copy.name() + " for cyclic buffer dependencies…");
        return tasks.run("Checking deadlocks", () -> DeadlockCheck.check(copy), r -> showDeadlocks(r, revision),
                ex -> editor.message("Deadlock check failed: " + ex.getMessage()));
    }

    /** The check's report; its cycles are highlighted on the fabric as it is now (matched by id). */
    private void showDeadlocks(DeadlockCheck.Result r, long revision) {
        Fabric f = doc.fabric();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%,d buffer dependencies on lossless priorities %s%n", r.dependencies(),
                r.priorities()));
        Set<Device> devices = new java.util.LinkedHashSet<>();
        Set<Link> links = new java.util.LinkedHashSet<>();
        if (r.deadlockFree()) {
            sb.append("No cyclic buffer dependency: PFC cannot deadlock with this routing.\n");
        } else {
            sb.append(r.cycles().size()).append(" cycle(s) of buffer dependencies: PFC can deadlock.\n");
            for (DeadlockCheck.Cycle c : r.cycles()) {
                sb.append("  priority ").append(c.priority()).append(": ").append(String.join(" -> ", c.switches()))
                        .append('\n');
                for (DeadlockCheck.IngressQueue q : c.queues()) {
                    Device d = f.device(q.device());
                    if (d != null) {
                        devices.add(d);
                    }
                    Link l = f.link(q.link());
                    if (l != null) {
                        links.add(l);
                    }
                }
            }
        }
        shownPaths = null;
        canvas.setHighlight(links, devices);
        if (!devices.isEmpty()) {
            doc.selection().set(devices, links);
        }
        String changed = revision == doc.stack().revision() ? "" : " (of the fabric as it was when the check started)";
        editor.message((r.deadlockFree() ? "Deadlock check: no cyclic buffer dependency"
                : "Deadlock check: " + r.cycles().size() + " cycle(s), highlighted") + changed);
        editor.dialogs().showReport("Deadlock check", sb.toString());
    }

    /**
     * Fabric > Fail a Link…: the selected link (or one typed in {@link FailLinkDialog}) is
     * set down as an undoable edit, and what its loss costs is reported (topology.FailureImpact).
     */
    public void failLinkDialog() {
        Link l = doc.selection().links().size() == 1 ? doc.selection().links().iterator().next() : null;
        if (l == null) {
            l = new FailLinkDialog(doc.fabric(), editor.getScene() == null ? null : editor.getScene().getWindow())
                    .dialog.showAndWait().orElse(null);
            if (l == null) {
                return;
            }
        }
        failLink(l);
    }

    /**
     * Sets a link down (one undo step, at once) and reports the impact of losing it, computed in the
     * background on a copy of the fabric taken while the link was still up. The computation starts
     * once the canvas has shown the failed link (its repaint's turns done), so the two do not share
     * the cores. The future completes as the task's does (after the result is shown).
     */
    public CompletableFuture<FailureImpact.Detail> failLink(Link l) {
        if (!l.isUp()) {
            editor.message(l.id() + " is already down");
            return CompletableFuture.completedFuture(null);
        }
        Fabric before = doc.fabric().copy();
        doc.execute(new SetPropertyCommand<>("Fail " + l.id(), l::state, l::setState, LinkState.DOWN));
        doc.selection().set(List.of(), List.of(l));
        editor.message("Failed " + l.id() + ": computing what it costs…");
        // whenPainted completes on the FX thread, which thenCompose then submits the task from.
        return canvas.whenPainted().thenCompose(painted -> tasks.run("Impact of failing " + l.id(),
                () -> FailureImpact.detail(before, before.link(l.id())),
                d -> showFailure(l, d), ex -> editor.message("Failure impact not computed: " + ex.getMessage())));
    }

    private void showFailure(Link l, FailureImpact.Detail d) {
        String text = String.format(Locale.ROOT,
                "%s is down (Ctrl+Z restores it).%n%nCapacity lost: %,.0f Gb/s%nNIC pairs cut off: %,d%n"
                        + "Worst switch pair keeps %.0f %% of its ECMP paths%nSwitch pairs whose paths changed: %,d",
                l.id(), d.capacityLostGbps(), d.nicPairsDisconnected(), 100 * (1 - d.worstDropFraction()),
                d.changedPairs().size());
        editor.message(String.format(Locale.ROOT, "Failed %s: %,.0f Gb/s lost, %,d NIC pairs cut off", l.id(),
                d.capacityLostGbps(), d.nicPairsDisconnected()));
        editor.dialogs().showReport("Failure of " + l.id(), text);
    }

    /**
     * Two servers selected: the ECMP paths between their first NICs that share a rail (NIC k to
     * NIC k, else the first NIC of each) are highlighted; anything else clears the highlight.
     */
    void selectionChanged() {
        List<Device> sel = List.copyOf(doc.selection().devices());
        if (sel.size() == 2 && doc.selection().links().isEmpty() && sel.get(0).role() == DeviceRole.SERVER
                && sel.get(1).role() == DeviceRole.SERVER) {
            List<Port> a = nics(sel.get(0));
            List<Port> b = nics(sel.get(1));
            if (!a.isEmpty() && !b.isEmpty()) {
                Port pb = b.stream().filter(p -> java.util.Objects.equals(p.nic(), a.get(0).nic())).findFirst()
                        .orElse(b.get(0));
                // Shown, or being found, for this pair on this state of the fabric: nothing to do.
                if (!new PathsQuery(a.get(0), pb, doc.stack().revision()).equals(asked)) {
                    showPaths(a.get(0), pb);
                }
                return;
            }
        }
        if (asked != null && !(sel.size() == 2 && sel.contains(asked.from().device())
                && sel.contains(asked.to().device()))) {
            clearPaths();
        }
    }

    private static List<Port> nics(Device server) {
        return server.ports().stream().filter(p -> p.nic() != null).toList();
    }

    /** A search for the ECMP paths between two NIC ports, on the fabric at a command-stack revision. */
    private record PathsQuery(Port from, Port to, long revision) {
    }

    /** The last search started (its paths shown, or still being found); null when none is wanted. */
    private PathsQuery asked;

    /**
     * Highlights every ECMP path between two NIC ports and says how many there are. The routing
     * (all switches' distances; about 75 ms warm on the 64-unit rail fabric, 200 ms cold) is
     * computed in the background on a copy of the fabric; the paths are shown on the FX thread
     * unless the fabric was edited, the highlight cleared or another search started meanwhile.
     * The future completes with what is shown (null when it was superseded).
     */
    public CompletableFuture<EcmpPaths> showPaths(Port a, Port b) {
        PathsQuery q = new PathsQuery(a, b, doc.stack().revision());
        asked = q;
        Fabric original = doc.fabric();
        Fabric copy = original.copy();
        String from = a.ref();
        String to = b.ref();
        EcmpPaths[] shown = new EcmpPaths[1];
        return tasks.run("Finding ECMP paths",
                () -> EcmpPaths.between(Routing.compute(copy), copy.port(from), copy.port(to)), p -> {
                    if (asked != q || q.revision() != doc.stack().revision() || original != doc.fabric()) {
                        return; // superseded: a newer search, a cleared highlight, an edit, another fabric
                    }
                    shown[0] = onOriginal(p, original);
                    show(shown[0]);
                }, ex -> editor.message("ECMP paths failed: " + ex.getMessage()))
                .thenApply(p -> shown[0]);
    }

    /** The paths found on a copy, as the original fabric's ports, links and devices (same ids). */
    private static EcmpPaths onOriginal(EcmpPaths p, Fabric f) {
        Set<Link> links = new java.util.LinkedHashSet<>();
        for (Link l : p.links()) {
            links.add(f.link(l.id()));
        }
        Set<Device> devices = new java.util.LinkedHashSet<>();
        for (Device d : p.devices()) {
            devices.add(f.device(d.id()));
        }
        return new EcmpPaths(f.port(p.from().ref()), f.port(p.to().ref()), p.count(), p.hops(), links, devices);
    }

    private void show(EcmpPaths p) {
        shownPaths = p;
        canvas.setHighlight(p.links(), p.devices());
        Port a = p.from();
        Port b = p.to();
        editor.message(p.count() == 0 ? "No path from " + a.ref() + " to " + b.ref()
                : String.format(Locale.ROOT, "%s → %s: %,d ECMP path%s of %d links, highlighted (Fabric > Show ECMP Paths picks other NICs)",
                        a.ref(), b.ref(), p.count(), p.count() == 1 ? "" : "s", p.hops()));
    }

    /** The ECMP paths highlighted now, or null. */
    public EcmpPaths shownPaths() {
        return shownPaths;
    }

    public void clearPaths() {
        asked = null; // a search still running is not shown
        shownPaths = null;
        canvas.setHighlight(Set.of(), Set.of());
    }

    /** Fabric > Show ECMP Paths…: pick the two NICs (pre-filled from two selected servers). */
    public void ecmpPathsDialog() {
        List<Port> all = new ArrayList<>();
        for (Device s : doc.fabric().servers()) {
            all.addAll(nics(s));
        }
        if (all.size() < 2) {
            editor.message("The fabric needs two servers with NICs");
            return;
        }
        List<Device> sel = doc.selection().devices().stream().filter(d -> d.role() == DeviceRole.SERVER).toList();
        javafx.scene.control.ComboBox<String> from = new javafx.scene.control.ComboBox<>();
        javafx.scene.control.ComboBox<String> to = new javafx.scene.control.ComboBox<>();
        for (javafx.scene.control.ComboBox<String> c : List.of(from, to)) {
            c.setEditable(true);
            c.getItems().setAll(all.stream().limit(5000).map(Port::ref).toList());
        }
        from.setValue(sel.size() >= 1 ? nics(sel.get(0)).get(0).ref() : all.get(0).ref());
        to.setValue(sel.size() >= 2 ? nics(sel.get(1)).get(0).ref() : all.get(all.size() - 1).ref());
        javafx.scene.control.Dialog<javafx.scene.control.ButtonType> d = new javafx.scene.control.Dialog<>();
        d.setTitle("ECMP paths");
        d.setHeaderText("Highlight every equal-cost path between two NICs (server:port)");
        d.initOwner(editor.getScene().getWindow());
        javafx.scene.layout.GridPane g = new javafx.scene.layout.GridPane();
        g.setHgap(8);
        g.setVgap(8);
        g.addRow(0, new Label("From NIC"), from);
        g.addRow(1, new Label("To NIC"), to);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().addAll(javafx.scene.control.ButtonType.CANCEL,
                javafx.scene.control.ButtonType.OK);
        d.showAndWait().filter(b -> b == javafx.scene.control.ButtonType.OK).ifPresent(b -> {
            Port a = doc.fabric().port(from.getValue().trim());
            Port c = doc.fabric().port(to.getValue().trim());
            if (a == null || c == null) {
                editor.message("No such NIC: " + (a == null ? from.getValue() : to.getValue()));
                return;
            }
            showPaths(a, c);
        });
    }

}
