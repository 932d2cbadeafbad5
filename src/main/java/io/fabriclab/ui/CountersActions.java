package io.fabriclab.ui;

import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.fabriclab.counters.CounterFindings;
import io.fabriclab.counters.CountersImport;
import io.fabriclab.counters.Measured;
import io.fabriclab.counters.PortFigures;
import io.fabriclab.counters.PortMap;
import io.fabriclab.counters.Scraper;
import io.fabriclab.counters.SimulatedFigures;
import io.fabriclab.io.ResultsFile;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.Finding;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * File > Open Counters… and File > Scrape Counters URL…: measured counters onto the drawing
 * (docs/counters.md). Files are read by the same service as {@code fabriclab counters}
 * ({@link CountersImport}) in the background on a copy of the fabric; a URL is scraped by a
 * {@link Scraper} on its own thread, each sample handed to the FX thread, which only draws. Bad
 * input is shown as a list of problems (file and line) and changes nothing: the layer shown before
 * stays as it was.
 */
public final class CountersActions {
    private final FabricEditor editor;
    private MeasuredLayer layer;
    private Scraper scraper;

    private CountersActions(FabricEditor editor) {
        this.editor = editor;
    }

    /** The editor's counters actions (one per editor, kept in its properties). */
    static CountersActions of(FabricEditor editor) {
        return (CountersActions) editor.getProperties().computeIfAbsent(CountersActions.class, k -> new CountersActions(editor));
    }

    /** The File menu items (inserted by the editor after Open Recent). */
    static List<MenuItem> menuItems(FabricEditor editor) {
        MenuItem open = new MenuItem("Open Counters…");
        open.setId("menu-open-counters");
        open.setOnAction(e -> of(editor).openDialog());
        MenuItem scrape = new MenuItem("Scrape Counters URL…");
        scrape.setId("menu-scrape-counters");
        scrape.setOnAction(e -> of(editor).scrapeDialog());
        return List.of(open, scrape);
    }

    /** The layer shown, or null. */
    MeasuredLayer layer() {
        return layer;
    }

    private Window window() {
        return editor.getScene() == null ? null : editor.getScene().getWindow();
    }

    private MeasuredLayer layerShown() {
        if (layer == null) {
            layer = new MeasuredLayer(editor);
            layer.setOnClose(this::close);
            layer.show();
        }
        return layer;
    }

    /** Stops a scrape and removes the layer. */
    void close() {
        stopScrape();
        if (layer != null) {
            layer.hide();
            layer = null;
        }
    }

    private void stopScrape() {
        if (scraper != null) {
            scraper.close();
            scraper = null;
        }
    }

    // ---------------------------------------------------------------- files

    /** Open Counters…: files, an optional port map and interval. */
    void openDialog() {
        Dialog<ButtonType> d = new Dialog<>();
        d.setTitle("Open Counters");
        d.setHeaderText("Measured counters of " + editor.document().fabric().name());
        d.initOwner(window());
        Label about = new Label("Two samples of each, read some seconds apart, give rates. Formats: Prometheus text, SONiC "
                + "show pfc / queue counters and watermarks, portstat -j, ethtool -S, hw_counters (docs/counters.md). "
                + "A file's device is its name up to the first dot (leaf1.pfc.txt).");
        about.setWrapText(true);
        about.setPrefWidth(560);
        about.setMaxWidth(560);
        ListView<Path> files = new ListView<>();
        files.setPrefHeight(140);
        files.setPrefWidth(420);
        files.setPlaceholder(new Label("No files yet: Add Files…"));
        Button add = new Button("Add Files…");
        add.setOnAction(e -> {
            FileChooser c = new FileChooser();
            c.setTitle("Counters files (two samples each)");
            List<File> chosen = c.showOpenMultipleDialog(d.getDialogPane().getScene().getWindow());
            if (chosen != null) {
                chosen.forEach(f -> files.getItems().add(f.toPath()));
            }
        });
        TextField map = new TextField();
        map.setPrefColumnCount(30);
        Button chooseMap = portMapChooser(d, map);
        TextField interval = new TextField();
        interval.setPromptText("from the files (their time, else modification time)");
        interval.setPrefColumnCount(30);
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(8);
        g.setPadding(new Insets(8));
        g.add(about, 0, 0, 3, 1);
        g.addRow(1, new Label("Files"), files, add);
        g.addRow(2, new Label("Port map"), map, chooseMap);
        g.addRow(3, new Label("Seconds between samples"), interval);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        DialogFit.fit(d);
        d.showAndWait().filter(b -> b == ButtonType.OK).ifPresent(b -> {
            Double seconds = null;
            if (!interval.getText().isBlank()) {
                try {
                    seconds = Double.parseDouble(interval.getText().strip());
                } catch (NumberFormatException ex) {
                    editor.dialogs().showErrors("Counters not opened", "Seconds between samples: " + interval.getText()
                            + " is not a number");
                    return;
                }
            }
            open(files.getItems().stream().map(Path::toString).toList(), map.getText().isBlank() ? null : Path.of(map.getText().strip()),
                    seconds);
        });
    }

    /** What a read gives the FX thread. */
    private record Read(Measured measured, List<Finding> findings) {
    }

    /**
     * Reads {@code files} in the background and shows them; the future completes (on the FX thread)
     * once shown, or exceptionally after the problems were shown.
     */
    public CompletableFuture<Measured> open(List<String> files, Path map, Double interval) {
        if (files.isEmpty()) {
            editor.dialogs().showErrors("Counters not opened", "No counters files were chosen.");
            return CompletableFuture.failedFuture(new IllegalArgumentException("no files"));
        }
        Fabric copy = editor.document().fabric().copy();
        Map<String, PortFigures> sim = layer == null ? null : layer.simulated();
        String what = files.size() == 1 ? Path.of(files.get(0)).getFileName().toString() : files.size() + " counters files";
        return BackgroundTasks.shared().run("Reading " + what, () -> {
            Measured m = CountersImport.read(copy, map, files, interval);
            return new Read(m, CounterFindings.of(copy, m, sim, CounterFindings.DEFAULT_IMBALANCE));
        }, r -> {
            stopScrape();
            MeasuredLayer l = layerShown();
            l.setMeasured(r.measured(), what, r.measured().samples());
            l.setFindings(r.findings());
            editor.message(String.format(Locale.ROOT, "Counters: %d ports measured over %.1f s%s", r.measured().ports().size(),
                    r.measured().intervalS(), r.measured().unmapped().isEmpty() ? "" : ", " + r.measured().unmapped().size() + " not mapped"));
        }, ex -> editor.dialogs().showErrors("Counters not opened (nothing changed)", String.valueOf(ex.getMessage())))
                .thenApply(Read::measured);
    }

    /** Compare with Results…: a results file's figures beside the measured ones. */
    void chooseResults() {
        FileChooser c = new FileChooser();
        c.setTitle("Simulation results to compare with (fabriclab simulate -o)");
        c.getExtensionFilters().add(new FileChooser.ExtensionFilter("Results", "*.json"));
        File f = c.showOpenDialog(window());
        if (f != null) {
            compareWith(f.toPath());
        }
    }

    /** Reads a results file in the background and shows the simulated and difference views from it. */
    public CompletableFuture<Map<String, PortFigures>> compareWith(Path results) {
        Fabric copy = editor.document().fabric().copy();
        Measured m = layer == null ? null : layer.measured();
        return BackgroundTasks.shared().run("Reading " + results.getFileName(), () -> {
            Map<String, PortFigures> sim = SimulatedFigures.of(ResultsFile.read(results).results());
            List<Finding> findings = m == null ? null : CounterFindings.of(copy, m, sim, CounterFindings.DEFAULT_IMBALANCE);
            return new Object[] {sim, findings};
        }, o -> {
            @SuppressWarnings("unchecked")
            Map<String, PortFigures> sim = (Map<String, PortFigures>) o[0];
            MeasuredLayer l = layerShown();
            l.setSimulated(sim, results.getFileName().toString());
            if (o[1] != null) {
                @SuppressWarnings("unchecked")
                List<Finding> f = (List<Finding>) o[1];
                l.setFindings(f);
            }
        }, ex -> editor.dialogs().showErrors("Results not read", String.valueOf(ex.getMessage())))
                .thenApply(o -> {
                    @SuppressWarnings("unchecked")
                    Map<String, PortFigures> sim = (Map<String, PortFigures>) o[0];
                    return sim;
                });
    }

    // ---------------------------------------------------------------- scraping

    /** Scrape Counters URL…: a Prometheus endpoint and the seconds between scrapes. */
    void scrapeDialog() {
        Dialog<ButtonType> d = new Dialog<>();
        d.setTitle("Scrape Counters URL");
        d.setHeaderText("A Prometheus endpoint (text format) whose counters name the drawing's devices and ports");
        d.initOwner(window());
        TextField url = new TextField("http://");
        url.setPrefColumnCount(36);
        TextField every = new TextField(String.valueOf(Scraper.DEFAULT_INTERVAL.toSeconds()));
        TextField map = new TextField();
        Button chooseMap = portMapChooser(d, map);
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(8);
        g.setPadding(new Insets(8));
        g.addRow(0, new Label("URL"), url);
        g.addRow(1, new Label("Seconds between scrapes"), every);
        g.addRow(2, new Label("Port map"), map, chooseMap);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        DialogFit.fit(d);
        d.showAndWait().filter(b -> b == ButtonType.OK).ifPresent(b -> {
            try {
                double s = Double.parseDouble(every.getText().strip());
                if (!(s >= 0.2 && s <= 3600)) {
                    throw new NumberFormatException();
                }
                URI uri = URI.create(url.getText().strip());
                Duration period = Duration.ofMillis(Math.round(s * 1000));
                if (map.getText().isBlank()) {
                    scrape(uri, period, Scraper.DEFAULT_TIMEOUT);
                } else {
                    scrapeWithMap(uri, period, Path.of(map.getText().strip()));
                }
            } catch (NumberFormatException e) {
                editor.dialogs().showErrors("Not scraping", "Seconds between scrapes: " + every.getText() + "; allowed: 0.2 to 3600");
            } catch (IllegalArgumentException e) {
                editor.dialogs().showErrors("Not scraping", String.valueOf(e.getMessage()));
            }
        });
    }

    /** Reads the port map in the background, then scrapes with it; a bad map is shown and nothing starts. */
    CompletableFuture<Scraper> scrapeWithMap(URI uri, Duration every, Path map) {
        Fabric copy = editor.document().fabric().copy();
        return BackgroundTasks.shared().run("Reading " + map.getFileName(), () -> PortMap.read(map, copy),
                pm -> scrape(uri, every, Scraper.DEFAULT_TIMEOUT, pm),
                ex -> editor.dialogs().showErrors("Not scraping: the port map is wrong", String.valueOf(ex.getMessage())))
                .thenApply(pm -> scraper);
    }

    /** {@link #scrape(URI, Duration, Duration, PortMap)} with names as in the drawing. */
    public Scraper scrape(URI uri, Duration every, Duration timeout) {
        return scrape(uri, every, timeout, PortMap.NONE);
    }

    /**
     * Starts scraping {@code uri} (stopping a scrape under way). Samples and failures reach the
     * layer through {@link Platform#runLater}; the FX thread never waits on the network.
     */
    public Scraper scrape(URI uri, Duration every, Duration timeout, PortMap map) {
        stopScrape();
        Fabric copy = editor.document().fabric().copy();
        MeasuredLayer l = layerShown();
        Map<String, PortFigures> sim = l.simulated();
        String name = uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "") + uri.getPath();
        l.setProblem(null);
        Scraper s = new Scraper(uri, every, timeout, copy, map, new Scraper.Listener() {
            @Override
            public void sampled(io.fabriclab.counters.CounterSample sample, Measured rates, int scrapes) {
                List<Finding> findings = rates == null ? null : CounterFindings.of(copy, rates, sim, CounterFindings.DEFAULT_IMBALANCE);
                Platform.runLater(() -> {
                    if (layer != l) {
                        return; // closed meanwhile
                    }
                    if (rates == null) {
                        l.setProblem("first sample in, waiting for the second");
                    } else {
                        l.setMeasured(rates, name, scrapes);
                        l.setFindings(findings);
                    }
                });
            }

            @Override
            public void failed(String message, int failures) {
                Platform.runLater(() -> {
                    if (layer == l) {
                        l.setProblem(message + " (failed " + failures + "x; still trying every " + every.toSeconds() + " s)");
                        editor.message("Scrape failed: " + message);
                    }
                });
            }
        });
        scraper = s;
        s.start();
        editor.message("Scraping " + uri + " every " + every.toMillis() / 1000.0 + " s");
        return s;
    }

    /** The scrape under way, or null. */
    Scraper scraper() {
        return scraper;
    }

    /** The "Port Map…" button of a counters dialog: a JSON port map chosen into {@code map} (prompted "none"). */
    private static Button portMapChooser(javafx.scene.control.Dialog<?> d, TextField map) {
        map.setPromptText("none: names as in the drawing");
        Button chooseMap = new Button("Port Map…");
        chooseMap.setOnAction(e -> {
            FileChooser c = new FileChooser();
            c.setTitle("Port map (JSON)");
            c.getExtensionFilters().add(new FileChooser.ExtensionFilter("Port map", "*.json"));
            File f = c.showOpenDialog(d.getDialogPane().getScene().getWindow());
            if (f != null) {
                map.setText(f.getPath());
            }
        });
        return chooseMap;
    }
}
