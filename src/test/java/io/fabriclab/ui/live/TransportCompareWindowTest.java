package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.report.TransportComparison;
import io.fabriclab.ui.FabricDocument;
import io.fabriclab.ui.FabricEditor;
import io.fabriclab.workload.WorkloadPreset;
import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Simulate > Compare Transports…: the open drawing and a preset under the three transports, each
 * run as itself, give the CLI's table with a column per transport and the charts.
 */
@ExtendWith(ApplicationExtension.class)
class TransportCompareWindowTest {
    private FabricEditor editor;
    private Fabric fabric;

    @Start
    void start(Stage stage) throws Exception {
        fabric = FabricJson.read(Path.of("resources/examples/classic-leaf-spine.json"));
        editor = new FabricEditor(new FabricDocument(fabric, null));
        stage.setScene(new Scene(editor, 1200, 780));
        stage.show();
    }

    @Test
    void theMenuOpensTheWindowAndASmallIncastGivesAColumnPerTransport(FxRobot robot) throws Exception {
        Menu menu = LiveMenu.create(editor);
        MenuItem item = menu.getItems().stream().filter(i -> "menu-compare-transports".equals(i.getId())).findFirst()
                .orElseThrow();
        assertEquals("Compare Transports…", item.getText());
        robot.interact(item::fire);
        WaitForAsyncUtils.waitForFxEvents();
        TransportCompareWindow[] w = new TransportCompareWindow[1];
        robot.interact(() -> {
            for (Window win : Window.getWindows()) {
                if (win.getScene() != null && win.getScene().getRoot() instanceof TransportCompareWindow t) {
                    w[0] = t;
                }
            }
        });
        assertNotNull(w[0], "the window opened");
        CompletableFuture<TransportComparison>[] f = new CompletableFuture[1];
        robot.interact(() -> {
            w[0].workload.setValue(LiveWorkload.of(WorkloadPreset.INCAST));
            w[0].sizeMb.setText("0.2");
            w[0].fanIn.setText("4");
            f[0] = w[0].compare();
            assertTrue(w[0].compare.isDisabled(), "Compare is off while the transports run");
        });
        TransportComparison cmp = f[0].get(120, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> {
            // A column per transport, in the order asked for, each run as itself.
            assertEquals(List.of("measure", "RoCEv2", "InfiniBand", "Ultra Ethernet"),
                    w[0].table.getColumns().stream().map(c -> c.getText()).toList());
            for (TransportComparison.Row r : cmp.rows()) {
                assertTrue(r.simulated(), r.transport() + " simulated");
                assertEquals(4, r.results().run().flowsCompleted(), r.transport() + ": the 4 senders completed");
            }
            // InfiniBand is lossless by credits and never pauses with PFC; Ultra Ethernet has no PFC either.
            assertEquals(0, cmp.row(Transport.INFINIBAND).orElseThrow().results().summary().pauseFramesSent());
            assertEquals(0, cmp.row(Transport.ULTRA_ETHERNET).orElseThrow().results().summary().pauseFramesSent());
            // The table shows the CLI's figures, row for row (TransportComparison.table()).
            List<String[]> cli = cmp.table();
            assertEquals(cli.size() - 1, w[0].table.getItems().size());
            for (int m = 1; m < cli.size(); m++) {
                assertEquals(List.of(cli.get(m)), w[0].table.getItems().get(m - 1), cli.get(m)[0]);
            }
            List<String> measures = w[0].table.getItems().stream().map(r -> r.get(0)).toList();
            for (String m : List.of("FCT p50", "FCT p99", "FCT p99.9", "drops", "retransmitted",
                    "paused or credit-stalled time", "max queue", "fabric cost", "fabric cost, % of InfiniBand's")) {
                assertTrue(measures.contains(m), m + " in " + measures);
            }
            // Charts: a bar per transport for throughput, cost and throughput per cost.
            assertEquals(3, w[0].throughputChart.getData().get(0).getData().size());
            assertEquals(3, w[0].costChart.getData().get(0).getData().size());
            assertEquals(3, w[0].perCostChart.getData().get(0).getData().size());
            // An incast has no collective: the bars are the aggregate goodput, what the fabric delivered
            // (the mean of per-flow throughputs would reward flows finishing unevenly).
            assertTrue(w[0].throughputChart.getTitle().startsWith("aggregate goodput"), w[0].throughputChart.getTitle());
            for (int i = 0; i < 3; i++) {
                TransportComparison.Row r = cmp.rows().get(i);
                assertEquals(TransportComparison.aggregateGoodputGbps(r.results()),
                        w[0].throughputChart.getData().get(0).getData().get(i).getYValue().doubleValue(), 1e-9, r.transport().toString());
            }
            assertFalse(w[0].compare.isDisabled());
            assertTrue(w[0].status.getText().startsWith("Compared"), w[0].status.getText());
            assertEquals(1.0, w[0].bars.get(Transport.INFINIBAND).getProgress(), 0);
        });
    }

    @Test
    void aPresetRunsOnEachTransportsOwnCopyOfTheDrawing() throws Exception {
        RunSettings s = RunSettings.incast().withBytes(100_000).withFanIn(2);
        var scenarios = TransportCompareWindow.scenarios(fabric.copy(), s, new java.util.ArrayList<>());
        assertEquals(TransportCompareWindow.TRANSPORTS, List.copyOf(scenarios.keySet()));
        scenarios.forEach((t, sc) -> {
            assertEquals(t, sc.transportName());
            assertTrue(sc.fabric() != fabric, "a copy, never the drawing");
            assertEquals(2, sc.flows().size());
        });
        // InfiniBand on a 9000 B Ethernet fabric sends at IBTA's largest MTU, 4096 B (as a scenario naming it would).
        assertEquals(4096, scenarios.get(Transport.INFINIBAND).transport().ib().mtuBytes());
    }

    @Test
    void aScenarioComparisonSavesTheReportWithItsTransportComparisonSection(FxRobot robot,
            @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // A small scenario of the open drawing: 2 senders x 200 kB into one NIC.
        Path sc = dir.resolve("small-incast.json");
        java.nio.file.Files.writeString(sc, """
                {"schemaVersion": 1, "name": "small incast", "fabric": "unused.json", "seed": 1,
                 "workloads": [{"type": "incast", "senders": ["server02:nic0", "server03:nic0"],
                                "receiver": "server01:nic0", "bytesPerSender": 200000}]}
                """);
        TransportCompareWindow[] w = new TransportCompareWindow[1];
        CompletableFuture<TransportComparison>[] f = new CompletableFuture[1];
        robot.interact(() -> {
            w[0] = new TransportCompareWindow(() -> fabric, null);
            new Stage().setScene(new Scene(w[0], 1200, 760));
            w[0].workload.getItems().add(LiveWorkload.file(sc));
            w[0].workload.setValue(LiveWorkload.file(sc));
            f[0] = w[0].compare();
        });
        TransportComparison cmp = f[0].get(120, TimeUnit.SECONDS);
        assertEquals("small incast", cmp.scenarioName());
        WaitForAsyncUtils.waitForFxEvents();
        Path html = dir.resolve("cmp.html");
        CompletableFuture<Path>[] saved = new CompletableFuture[1];
        robot.interact(() -> {
            assertFalse(w[0].saveReport.isDisabled(), "a scenario comparison can be saved as a report");
            saved[0] = w[0].saveReport(html);
        });
        assertEquals(html, saved[0].get(120, TimeUnit.SECONDS));
        String text = java.nio.file.Files.readString(html);
        assertTrue(text.contains("<h2>Transport comparison</h2>"), "section missing");
        assertTrue(text.contains("Ultra Ethernet") && text.contains("InfiniBand"), "every transport's column");
    }
}
