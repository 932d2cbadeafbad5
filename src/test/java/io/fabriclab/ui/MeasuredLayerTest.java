package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import com.sun.net.httpserver.HttpServer;

import io.fabriclab.counters.CountersFrame;
import io.fabriclab.counters.Measured;
import io.fabriclab.counters.PortFigures;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.Finding;
import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;

/**
 * File > Open Counters… and the measured layer on the shipped example: the samples drawn in the
 * live view's language, the Problems panel's findings from them, the view toggle, bad input that
 * changes nothing, and a scraped endpoint (embedded HTTP server) that updates the layer as samples
 * arrive while a dead one is reported without holding the FX thread.
 */
@ExtendWith(ApplicationExtension.class)
class MeasuredLayerTest {
    static final Path SAMPLES = Path.of("resources/counters/classic-leaf-spine");
    private FabricEditor editor;
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private final CountDownLatch never = new CountDownLatch(1);

    @Start
    void start(Stage stage) throws Exception {
        Fabric f = FabricFiles.load(Path.of("resources/examples/classic-leaf-spine.json"));
        editor = new FabricEditor(new FabricDocument(f, null));
        editor.setDialogService(new DialogService() {
            @Override
            public boolean confirm(String header, String text) {
                return true;
            }

            @Override
            public void showErrors(String header, String details) {
                errors.add(header + "\n" + details);
            }
        });
        stage.setScene(new Scene(editor, 1200, 800));
        stage.show();
    }

    @AfterEach
    void stop() throws Exception {
        never.countDown();
        WaitForAsyncUtils.asyncFx(() -> CountersActions.of(editor).close()).get();
        if (server != null) {
            server.stop(0);
        }
    }

    private static List<String> sampleFiles(String... folders) throws Exception {
        List<String> out = new ArrayList<>();
        for (String folder : folders) {
            try (var s = Files.list(SAMPLES.resolve(folder))) {
                s.sorted().forEach(p -> out.add(p.toString()));
            }
        }
        return out;
    }

    private static <T> T onFx(java.util.concurrent.Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }

    private Measured open(List<String> files, Path map) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> CountersActions.of(editor).open(files, map, null)).get()
                .get(60, TimeUnit.SECONDS);
    }

    @Test
    void fileMenuOffersOpenCountersAfterOpenRecent() {
        Menu file = editor.menuBar().getMenus().stream().filter(m -> m.getText().equals("File")).findFirst().orElseThrow();
        List<String> items = file.getItems().stream().map(MenuItem::getText).toList();
        int recent = items.indexOf("Open Recent");
        assertEquals("Open Counters…", items.get(recent + 1), items.toString());
        assertEquals("Scrape Counters URL…", items.get(recent + 2), items.toString());
    }

    @Test
    void openCountersDrawsTheMeasuredLayerAndListsItsFindings() throws Exception {
        Measured m = open(sampleFiles("sonic-show", "ethtool"), SAMPLES.resolve("port-map.json"));
        WaitForAsyncUtils.waitForFxEvents();
        MeasuredLayer layer = onFx(() -> CountersActions.of(editor).layer());
        assertNotNull(layer);
        assertSame(m, layer.measured());
        var fabric = editor.document().fabric();
        var frame = onFx(layer::frame);
        var uplink = fabric.linkAt(fabric.port("leaf1:eth9"));
        int spineToLeaf = frame.directions.of(uplink, uplink.a() != fabric.port("leaf1:eth9"));
        assertTrue(frame.paused[spineToLeaf], "leaf1 sent PFC on eth9: spine1's egress toward it is paused");
        var down = fabric.linkAt(fabric.port("leaf1:eth1"));
        int leafToServer = frame.directions.of(down, down.a() == fabric.port("leaf1:eth1"));
        assertTrue(frame.marksPerUs[leafToServer] > 0, "ECN sparks on leaf1:eth1");
        assertTrue(frame.dropFlash[leafToServer] > 0, "the drops on leaf1:eth1");
        assertEquals(1450_000, frame.queueBytes[leafToServer], "queue depth from the watermark");
        List<String> codes = onFx(() -> editor.problems().counterFindings().stream().map(Finding::code).toList());
        assertTrue(codes.contains("COUNTER_LOSSLESS_DROP") && codes.contains("COUNTER_ECMP_IMBALANCE"), codes.toString());
        assertTrue(onFx(() -> editor.problems().getText()).contains("from counters"));
        assertTrue(onFx(layer::statusText).contains("20 samples"), onFx(layer::statusText));

        // Simulated and difference: on with simulated figures, the difference is |m - s|.
        PortFigures s = new PortFigures(0, 0, 0, 40_000, Double.NaN, Double.NaN, 0, 0, 0);
        onFx(() -> {
            layer.setSimulated(Map.of("leaf1:eth1", s), "test");
            layer.showView(CountersFrame.View.DIFFERENCE);
            return null;
        });
        assertEquals(CountersFrame.View.DIFFERENCE, onFx(layer::view));
        assertEquals(2_000 / 1e6, onFx(layer::frame).marksPerUs[leafToServer], 1e-12, "42,000 measured - 40,000 simulated");
        onFx(() -> {
            layer.showView(CountersFrame.View.SIMULATED);
            return null;
        });
        assertEquals(40_000 / 1e6, onFx(layer::frame).marksPerUs[leafToServer], 1e-12);

        // A bad file: the problems are shown with file and line, the layer keeps what it had.
        Path bad = Files.createTempFile("leaf1.", ".txt");
        try {
            Files.writeString(bad, "  Port Rx  PFC3\n---------  ----\nEthernet0  lots\n");
            ExecutionException e = assertThrows(ExecutionException.class, () -> open(List.of(bad.toString()), null));
            assertNotNull(e.getCause());
        } finally {
            Files.deleteIfExists(bad);
        }
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(errors.stream().anyMatch(x -> x.contains(bad + ": line 3: column PFC3 of Ethernet0")), errors.toString());
        assertSame(m, onFx(layer::measured), "nothing changed");

        // Close: layer, bar and findings go.
        onFx(() -> {
            CountersActions.of(editor).close();
            return null;
        });
        assertTrue(onFx(() -> editor.problems().counterFindings()).isEmpty());
        assertTrue(onFx(() -> CountersActions.of(editor).layer() == null));
    }

    @Test
    void theLiveViewTakesTheCanvasWhileOpenAndClosingEitherLeavesTheOther() throws Exception {
        open(sampleFiles("sonic-show"), SAMPLES.resolve("port-map.json"));
        WaitForAsyncUtils.waitForFxEvents();
        MeasuredLayer layer = onFx(() -> CountersActions.of(editor).layer());
        assertSame(layer, onFx(() -> editor.canvas().layer()));
        onFx(() -> {
            editor.showLiveView(true);
            return null;
        });
        var live = onFx(() -> editor.canvas().layer());
        assertTrue(live != null && live != layer, "the live view draws its run");
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(layer::statusText).startsWith(MeasuredLayer.LIVE_VIEW_SHOWN));
        onFx(() -> {
            editor.showLiveView(false);
            return null;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> editor.canvas().layer()) == layer);
        // Closing the counters while the live view is open leaves the live view's layer.
        onFx(() -> {
            editor.showLiveView(true);
            return null;
        });
        var again = onFx(() -> editor.canvas().layer());
        onFx(() -> {
            CountersActions.of(editor).close();
            return null;
        });
        assertSame(again, onFx(() -> editor.canvas().layer()));
        onFx(() -> {
            editor.showLiveView(false);
            return null;
        });
    }

    @Test
    void aScrapeWithAPortMapNamingMissingPortsDoesNotStart(@TempDir Path dir) throws Exception {
        Path map = dir.resolve("map.json");
        Files.writeString(map, "{\"schemaVersion\": 1, \"ports\": {\"spine1:Ethernet0\": \"spine1:eth9\"}}");
        var f = WaitForAsyncUtils.asyncFx(() -> CountersActions.of(editor).scrapeWithMap(URI.create("http://127.0.0.1:9/metrics"),
                Duration.ofSeconds(5), map)).get();
        assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(errors.stream().anyMatch(e -> e.contains("$.ports[\"spine1:Ethernet0\"]: names port spine1:eth9")), errors.toString());
        assertTrue(onFx(() -> CountersActions.of(editor).scraper() == null && CountersActions.of(editor).layer() == null));
    }

    private URI serve() throws Exception {
        AtomicInteger n = new AtomicInteger();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", ex -> {
            int k = n.incrementAndGet();
            byte[] b = ("sonic_pfc_rx_frames_total{hostname=\"spine1\",interface=\"eth1\",priority=\"3\"} " + 500 * k + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.createContext("/silent", ex -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-exporter");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Test
    void aScrapedUrlUpdatesTheLayerAsSamplesArriveAndADeadOneIsReported(FxRobot robot) throws Exception {
        URI base = serve();
        onFx(() -> CountersActions.of(editor).scrape(base.resolve("/metrics"), Duration.ofMillis(100), Duration.ofSeconds(10)));
        MeasuredLayer layer = onFx(() -> CountersActions.of(editor).layer());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> layer.measured() != null
                && layer.statusText().matches(".*: [3-9]\\d* samples.*")));
        var fabric = editor.document().fabric();
        var link = fabric.linkAt(fabric.port("spine1:eth1"));
        int spineEgress = onFx(layer::frame).directions.of(link, link.a() == fabric.port("spine1:eth1"));
        assertTrue(onFx(layer::frame).paused[spineEgress], "spine1:eth1 received pauses: its egress is paused");

        // A dead endpoint: reported in the bar; the FX thread keeps answering meanwhile.
        onFx(() -> CountersActions.of(editor).scrape(base.resolve("/silent"), Duration.ofMillis(100), Duration.ofMillis(400)));
        for (int i = 0; i < 5; i++) {
            assertEquals(1, (int) onFx(() -> 1), "the FX thread answers while the scrape waits");
        }
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(layer::statusText).contains("did not answer within 0.4 s"));
        assertTrue(onFx(layer::statusText).contains("still trying"), onFx(layer::statusText));
        assertTrue(onFx(layer::frame).paused[spineEgress], "the last picture stays");
    }
}
