package io.fabriclab.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.AtomicFiles.ProcessKey;
import io.fabriclab.io.FabricJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;

/**
 * Crash recovery: keyed on process id plus start time; a restored autosave is kept until the
 * restored fabric is saved; a declined one is kept for days and can be opened; an unreadable one
 * is moved aside and reported, never deleted. The offers run on the FX thread (the JavaFX toolkit
 * the extension starts) and read autosaves on the background executor.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.testfx.framework.junit5.ApplicationExtension.class)
class AutosaveRecoveryTest {
    @TempDir
    Path dir;

    final List<String> shown = new ArrayList<>();
    boolean answer;
    int choice = -1;

    final DialogService dialogs = new DialogService() {
        @Override
        public boolean confirm(String header, String text) {
            shown.add("confirm: " + header);
            return answer;
        }

        @Override
        public void showErrors(String header, String details) {
            shown.add("errors: " + header + ": " + details);
        }

        @Override
        public int choose(String header, String text, List<String> choices) {
            shown.add("choose: " + choices);
            return choice;
        }
    };

    final FabricDocument doc = new FabricDocument(LeafSpineGenerator.generate(LeafSpineParams.classic()), null);
    /** This session's recovery (the temp directory is injected after construction). */
    AutosaveRecovery me;

    @org.junit.jupiter.api.BeforeEach
    void session() {
        me = new AutosaveRecovery(dir, ProcessKey.current());
    }

    /**
     * Runs an offer on the FX thread (it reads autosaves on the background executor and asks on the
     * FX thread) and waits for its answer.
     */
    private static boolean onFx(java.util.function.Supplier<java.util.concurrent.CompletableFuture<Boolean>> offer)
            throws Exception {
        return org.testfx.util.WaitForAsyncUtils.asyncFx(offer::get).get(1, java.util.concurrent.TimeUnit.MINUTES)
                .get(1, java.util.concurrent.TimeUnit.MINUTES);
    }

    private RecoveryOffer offer() {
        return new RecoveryOffer(doc, dialogs, me, m -> shown.add("message: " + m));
    }

    /** A crashed session's autosave of a 2-leaf fabric, under the given key. */
    private AutosaveRecovery crashed(ProcessKey key) throws Exception {
        AutosaveRecovery r = new AutosaveRecovery(dir, key);
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic().withLeaves(2));
        f.setName("unsaved work");
        r.write(f, dir.resolve("design.json"));
        return r;
    }

    @Test
    void aReusedProcessIdDoesNotHideTheCrashedSessionsAutosave() throws Exception {
        // The crashed editor had this process's id (reused after a reboot), but started at another time.
        ProcessKey reused = new ProcessKey(ProcessHandle.current().pid(), ProcessKey.current().startMillis() - 3_600_000);
        AutosaveRecovery old = crashed(reused);
        AutosaveRecovery other = new AutosaveRecovery(dir, new ProcessKey(ProcessHandle.current().pid() + 1_000_000, 5));
        List<AutosaveRecovery.Orphan> orphans = other.orphans();
        assertEquals(1, orphans.size());
        assertEquals(old.jsonFile(), orphans.get(0).json());
        // This session's own file is never an orphan.
        assertEquals(List.of(), old.orphans());
    }

    @Test
    void aRestoredAutosaveIsKeptUntilTheRestoredFabricIsSaved() throws Exception {
        AutosaveRecovery gone = crashed(new ProcessKey(deadPid(), 1));
        String autosaved = Files.readString(gone.jsonFile());
        answer = true;
        assertTrue(onFx(() -> offer().offer()));
        assertEquals("unsaved work", doc.fabric().name());
        assertEquals(dir.resolve("design.json"), doc.file(), "Save writes to the file it belonged to");
        assertFalse(Files.exists(gone.jsonFile()), "offered once");
        assertEquals(autosaved, Files.readString(me.jsonFile()), "kept as this session's recovery file");
        assertTrue(me.orphans().isEmpty(), "not offered again while this session runs");
        // A crash now leaves it under this session's id and start time: the next start offers it again.
        assertEquals("recovery-" + ProcessKey.current().pid() + "-" + ProcessKey.current().startMillis() + ".json",
                me.jsonFile().getFileName().toString());
        // Saved (FabricEditor.saveTo calls discard): now it goes.
        me.discard();
        assertFalse(Files.exists(me.jsonFile()));
    }

    @Test
    void aDeclinedAutosaveIsKeptForDaysAndCanBeOpened() throws Exception {
        AutosaveRecovery gone = crashed(new ProcessKey(deadPid(), 1));
        answer = false;
        assertFalse(onFx(() -> offer().offer()));
        assertFalse(Files.exists(gone.jsonFile()));
        assertTrue(me.orphans().isEmpty(), "not offered again at the next start");
        List<AutosaveRecovery.Orphan> declined = me.declined();
        assertEquals(1, declined.size());
        assertTrue(declined.get(0).json().startsWith(dir.resolve(AutosaveRecovery.DECLINED)));

        // File > Recover Autosaves: chosen, it is restored like at start.
        choice = 0;
        assertTrue(onFx(() -> offer().chooseDeclined()));
        assertEquals("unsaved work", doc.fabric().name());
        assertTrue(Files.exists(me.jsonFile()), "kept until saved");
        assertTrue(me.declined().isEmpty());
    }

    @Test
    void declinedAutosavesGoAfterSevenDays() throws Exception {
        crashed(new ProcessKey(deadPid(), 1));
        crashed(new ProcessKey(deadPid(), 2));
        answer = false;
        onFx(() -> offer().offer());
        List<AutosaveRecovery.Orphan> declined = me.declined();
        assertEquals(2, declined.size());
        Files.setLastModifiedTime(declined.get(0).json(), FileTime.from(Instant.now().minus(Duration.ofDays(8))));
        onFx(() -> offer().offer());
        assertEquals(1, me.declined().size(), "the one declined 8 days ago went; the other stays");
    }

    @Test
    void anUnreadableAutosaveIsMovedAsideAndReportedNeverDeleted() throws Exception {
        AutosaveRecovery gone = crashed(new ProcessKey(deadPid(), 1));
        // What an older or newer FabricLab could have written: a fabric this reader refuses.
        String bad = FabricJson.write(LeafSpineGenerator.generate(LeafSpineParams.classic()))
                .replace("\"name\": \"leaf-spine 4x2\"", "\"name\": \"\"");
        Files.writeString(gone.jsonFile(), bad);
        answer = true;
        assertFalse(onFx(() -> offer().offer()));
        assertFalse(Files.exists(gone.jsonFile()));
        Path aside = dir.resolve(AutosaveRecovery.UNREADABLE).resolve(gone.jsonFile().getFileName());
        assertEquals(bad, Files.readString(aside), "moved aside, byte for byte");
        assertTrue(shown.stream().anyMatch(s -> s.startsWith("errors: An autosaved fabric could not be read")
                && s.contains(aside.toString()) && s.contains("$.name")), shown.toString());
        assertFalse(shown.contains("confirm: Restore unsaved work?"));
    }

    /** The id of a process that has finished. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }
}
