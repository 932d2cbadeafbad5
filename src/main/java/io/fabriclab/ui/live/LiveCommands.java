package io.fabriclab.ui.live;

import java.nio.file.Path;
import java.util.Locale;

import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.SimSnapshot;
import javafx.application.Platform;
import javafx.beans.property.SimpleStringProperty;

/**
 * What the user sends to a live run of a {@link LiveViewModel} (ECN and PFC thresholds of a port or
 * profile, failing and restoring a link) and takes from it (its results for the design-review
 * report, the recording as a file). Each command returns at once; its outcome comes back to the
 * status lines on the FX thread.
 */
public final class LiveCommands {
    private final LiveViewModel m;

    LiveCommands(LiveViewModel m) {
        this.m = m;
    }


    /** Applies an ECN curve (KB, KB, 0-1) to {@code target} ("device:port" or "profile:NAME"). */
    public void applyEcn(String target, String kminKb, String kmaxKb, String pmax) {
        if (m.session() == null) {
            return;
        }
        try {
            String t = target(target);
            WredEcn curve = new WredEcn(Math.round(LiveViewModel.number(new SimpleStringProperty(kminKb), "Kmin") * 1000),
                    Math.round(LiveViewModel.number(new SimpleStringProperty(kmaxKb), "Kmax") * 1000),
                    LiveViewModel.number(new SimpleStringProperty(pmax), "Pmax"));
            var f = t.startsWith("profile:")
                    ? m.session().run().setEcnForProfile(t.substring(8), QosProfile.RDMA_PRIORITY, curve)
                    : m.session().run().setEcn(t, QosProfile.RDMA_PRIORITY, curve);
            report(f, "ECN " + curve.kminBytes() / 1000 + "/" + curve.kmaxBytes() / 1000 + " KB, Pmax "
                    + curve.pmax() + " on " + t);
        } catch (IllegalArgumentException e) {
            m.setThresholdStatus(e.getMessage());
        }
    }

    /** Applies PFC XOFF / XON (KB) to {@code target} ("device:port" or "profile:NAME"). */
    public void applyPfc(String target, String xoffKb, String xonKb) {
        if (m.session() == null) {
            return;
        }
        try {
            String t = target(target);
            long xoff = Math.round(LiveViewModel.number(new SimpleStringProperty(xoffKb), "XOFF") * 1000);
            long xon = Math.round(LiveViewModel.number(new SimpleStringProperty(xonKb), "XON") * 1000);
            var f = t.startsWith("profile:") ? m.session().run().setPfcForProfile(t.substring(8), xoff, xon)
                    : m.session().run().setPfc(t, xoff, xon);
            report(f, "PFC XOFF " + xoff / 1000 + " KB, XON " + xon / 1000 + " KB on " + t);
        } catch (IllegalArgumentException e) {
            m.setThresholdStatus(e.getMessage());
        }
    }

    private static String target(String t) {
        if (t == null || t.isBlank()) {
            throw new IllegalArgumentException("Port / profile: enter device:port or profile:NAME");
        }
        return t.trim();
    }

    private void report(java.util.concurrent.CompletableFuture<Long> f, String what) {
        m.setThresholdStatus(what + ": sent…");
        f.whenComplete((t, e) -> Platform.runLater(() -> m.setThresholdStatus(e != null
                ? what + ": refused: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage())
                : String.format(Locale.ROOT, "%s: in force from t = %.3f µs", what, t / 1e6))));
    }

    /** Fails {@code drawn} in the running copy, or restores it if the picture shows it failed. */
    void toggleLink(io.fabriclab.model.Link drawn) {
        io.fabriclab.model.Link l = m.session().simulatedLink(drawn);
        if (l == null) {
            m.setStatus("Link " + drawn.id() + " is not in the running fabric (added after the run started).");
            return;
        }
        boolean down = m.shownSnapshot() != null && isDown(drawn);
        var f = down ? m.session().run().restoreLink(l) : m.session().run().failLink(l);
        f.whenComplete((t, e) -> Platform.runLater(() -> m.setStatus(e != null
                ? "Link " + drawn.id() + ": " + e.getMessage()
                : String.format(Locale.ROOT, "Link %s %s at t = %.3f µs; routing reconverges after its delay.",
                        drawn.id(), down ? "restored" : "failed", t / 1e6))));
    }

    private boolean isDown(io.fabriclab.model.Link drawn) {
        SimSnapshot shown = m.shownSnapshot();
        int[] map = m.frames().portToDirection(shown);
        for (int i = 0; i < map.length; i++) {
            if (map[i] >= 0 && m.frames().directions().links().get(map[i] >> 1) == drawn && shown.linkDown()[i]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Writes the finished run's results as a results file for Export Report (on the FX thread:
     * the results of a small run; the status line says where it went). False without results.
     */
    public boolean writeResults(Path p) {
        if (m.session() == null || m.results() == null) {
            m.setStatus("No finished run: its results go into the report once it has ended.");
            return false;
        }
        try {
            m.session().writeResults(p, m.results());
            m.setStatus("Wrote " + p.getFileName() + ": add it in File > Export Report under Simulation results.");
            return true;
        } catch (java.io.IOException e) {
            m.setStatus("Cannot write " + p + ": " + e.getMessage());
            return false;
        }
    }

    /**
     * Saves the recorded run with its results on the application's background executor; the status
     * line says when it is written or why not. Completes (exceptionally when it failed) on the FX
     * thread after the status line is set.
     */
    public java.util.concurrent.CompletableFuture<Void> saveRun(Path p) {
        LiveSession s = m.session();
        SimResults r = m.results();
        int n = s.recording().size();
        m.setStatus("Saving " + p.getFileName() + " (" + n + " frames) …");
        // On the application's one executor (ui.BackgroundTasks), shown in the status bar while it runs.
        return io.fabriclab.ui.BackgroundTasks.shared().<Void>run("Saving the run", () -> {
            s.save(p, r);
            return null;
        }, v -> m.setStatus("Saved " + p.getFileName() + " (" + n + " frames)."),
                e -> m.setStatus("Cannot save " + p + ": " + e.getMessage()));
    }
}
