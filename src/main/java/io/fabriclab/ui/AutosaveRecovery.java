package io.fabriclab.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.AtomicFiles.ProcessKey;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;

/**
 * Autosave to a recovery file and the offer to restore it after a crash. While the editor runs
 * with unsaved changes, the fabric is written every minute to
 * {@code <dir>/recovery-<pid>-<start>.json} (atomically, in the fabric file format; pid and start
 * time in milliseconds of the editor's process, because a process id alone is reused, very likely
 * after a power loss) with the path of the file it belongs to in
 * {@code recovery-<pid>-<start>.origin}. A save, or closing without changes, deletes both.
 *
 * <p>At start, a recovery file whose process (id and start time) is no longer running means that
 * process crashed, and the editor offers it ({@link RecoveryOffer}):
 * <ul>
 * <li>restored: the files become this session's own recovery files ({@link #adopt}), so they are
 * deleted only once the restored fabric is saved (or the window closed without changes), and a
 * second crash before then offers them again;</li>
 * <li>declined: moved to {@code declined/} ({@link #decline}), listed by File &gt; Recover
 * Autosaves for {@value #KEEP_DECLINED_DAYS} days, then deleted;</li>
 * <li>unreadable: moved to {@code unreadable/} ({@link #setAside}) and never deleted by FabricLab;
 * the editor says where it went.</li>
 * </ul>
 * The directory is {@code ~/.fabriclab/recovery} unless {@code -Dfabriclab.recovery.dir} says
 * otherwise; the interval is {@code -Dfabriclab.autosave.seconds} (default 60).
 */
final class AutosaveRecovery {
    /** Days a declined recovery stays in {@code declined/}. */
    static final int KEEP_DECLINED_DAYS = 7;
    static final String DECLINED = "declined";
    static final String UNREADABLE = "unreadable";
    /** recovery-PID-START.json, or recovery-PID.json from FabricLab versions that keyed on the id alone. */
    private static final Pattern NAME = Pattern.compile("recovery-(\\d+)(?:-(\\d+))?\\.json");

    /** A recovery file left by a process that is gone (or a declined one). */
    record Orphan(Path json, Path origin, Path originalFile, ProcessKey owner) {
        /** Reads the fabric saved in it. */
        Fabric load() throws InputException {
            return FabricJson.read(json);
        }

        /** When the fabric was autosaved (or declined, for a declined one). */
        Instant savedAt() {
            try {
                return Files.getLastModifiedTime(json).toInstant();
            } catch (IOException e) {
                return Instant.EPOCH;
            }
        }

        void delete() {
            try {
                Files.deleteIfExists(json);
                Files.deleteIfExists(origin);
            } catch (IOException e) {
                // Left behind: offered again next time, which is the safe side.
            }
        }
    }

    private final Path dir;
    private final ProcessKey key;

    AutosaveRecovery(Path dir, ProcessKey key) {
        this.dir = dir;
        this.key = key;
    }

    /** A process by id: its start time when it is running, else unknown (0). */
    AutosaveRecovery(Path dir, long pid) {
        this(dir, ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessKey::of)
                .orElse(new ProcessKey(pid, 0)));
    }

    static AutosaveRecovery forThisProcess() {
        return new AutosaveRecovery(directory(), ProcessKey.current());
    }

    static Path directory() {
        String d = System.getProperty("fabriclab.recovery.dir");
        return d != null ? Path.of(d) : Path.of(System.getProperty("user.home"), ".fabriclab", "recovery");
    }

    static long intervalSeconds() {
        return Long.getLong("fabriclab.autosave.seconds", 60);
    }

    Path dir() {
        return dir;
    }

    Path jsonFile() {
        return dir.resolve(base(key) + ".json");
    }

    Path originFile() {
        return dir.resolve(base(key) + ".origin");
    }

    private static String base(ProcessKey k) {
        return "recovery-" + k.pid() + (k.startMillis() == 0 ? "" : "-" + k.startMillis());
    }

    /** Writes the fabric (and the file it belongs to, if any) to this process's recovery files. */
    void write(Fabric f, Path original) throws IOException {
        write(FabricJson.write(f), original);
    }

    /** Writes a fabric already serialised to the fabric file format. */
    void write(String fabricJson, Path original) throws IOException {
        Files.createDirectories(dir);
        AtomicFiles.write(originFile(), (original == null ? "" : original.toAbsolutePath().toString())
                .getBytes(StandardCharsets.UTF_8));
        AtomicFiles.write(jsonFile(), fabricJson.getBytes(StandardCharsets.UTF_8));
    }

    /** Deletes this process's recovery files (after a save, or a clean exit). */
    void discard() {
        new Orphan(jsonFile(), originFile(), null, key).delete();
    }

    /** Recovery files of processes that are no longer running, newest first. */
    List<Orphan> orphans() {
        return list(dir, true);
    }

    /** Declined recoveries still kept (younger than {@value #KEEP_DECLINED_DAYS} days), newest first. */
    List<Orphan> declined() {
        return list(dir.resolve(DECLINED), false);
    }

    private List<Orphan> list(Path in, boolean onlyGone) {
        List<Orphan> out = new ArrayList<>();
        if (!Files.isDirectory(in)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(in, "recovery-*.json")) {
            for (Path json : ds) {
                Matcher m = NAME.matcher(json.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                ProcessKey owner;
                try {
                    owner = new ProcessKey(Long.parseLong(m.group(1)), m.group(2) == null ? 0 : Long.parseLong(m.group(2)));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (onlyGone && (owner.equals(key) || ProcessKey.isRunning(owner.pid(), owner.startMillis()))) {
                    continue;
                }
                Path origin = in.resolve(json.getFileName().toString().replaceFirst("\\.json$", ".origin"));
                out.add(new Orphan(json, origin, originalOf(origin), owner));
            }
        } catch (IOException e) {
            return out;
        }
        out.sort(Comparator.comparing(Orphan::savedAt).reversed());
        return out;
    }

    private static Path originalOf(Path origin) {
        try {
            if (Files.isRegularFile(origin)) {
                String s = Files.readString(origin, StandardCharsets.UTF_8).trim();
                return s.isEmpty() ? null : Path.of(s);
            }
        } catch (IOException | RuntimeException e) {
            // No original file known: the restored fabric asks for a name on Save.
        }
        return null;
    }

    /**
     * The user restored an orphan: it becomes this session's recovery file, so it stays on disk
     * until the restored fabric is saved (Save calls {@link #discard}) and is offered again if this
     * session crashes first.
     */
    void adopt(Orphan o) throws IOException {
        Files.createDirectories(dir);
        if (Files.exists(o.origin())) {
            Files.move(o.origin(), originFile(), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(o.json(), jsonFile(), StandardCopyOption.REPLACE_EXISTING);
    }

    /** The user said no: kept in {@code declined/} for {@value #KEEP_DECLINED_DAYS} days (File &gt; Recover Autosaves). */
    Path decline(Orphan o) throws IOException {
        Path to = moveInto(o, DECLINED);
        // The days count from the answer, not from the autosave.
        Files.setLastModifiedTime(to, FileTime.from(Instant.now()));
        return to;
    }

    /** A recovery file that could not be read: moved to {@code unreadable/}, never deleted by FabricLab. */
    Path setAside(Orphan o) throws IOException {
        return moveInto(o, UNREADABLE);
    }

    private static Path moveInto(Orphan o, String sub) throws IOException {
        Path to = o.json().getParent().resolve(sub);
        Files.createDirectories(to);
        Path json = to.resolve(o.json().getFileName());
        if (Files.exists(o.origin())) {
            Files.move(o.origin(), to.resolve(o.origin().getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(o.json(), json, StandardCopyOption.REPLACE_EXISTING);
        return json;
    }

    /** Deletes declined recoveries older than {@code keep}; returns how many went. */
    int purgeDeclined(Duration keep) {
        int n = 0;
        Instant cutoff = Instant.now().minus(keep);
        for (Orphan o : list(dir.resolve(DECLINED), false)) {
            if (o.savedAt().isBefore(cutoff)) {
                o.delete();
                n++;
            }
        }
        return n;
    }
}
