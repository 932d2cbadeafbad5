package io.fabriclab.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.io.FabricJson;
import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;

/**
 * Autosave to a recovery file and the offer to restore it after a crash. While the editor runs
 * with unsaved changes, the fabric is written every minute to
 * {@code <dir>/recovery-<pid>.json} (atomically, in the fabric file format) with the path of the
 * file it belongs to in {@code recovery-<pid>.origin}. A save, or closing without changes, deletes
 * both. At start, a recovery file of a process that is no longer running means that process
 * crashed: the editor offers to restore it. The directory is {@code ~/.fabriclab/recovery}
 * unless {@code -Dfabriclab.recovery.dir} says otherwise; the interval is
 * {@code -Dfabriclab.autosave.seconds} (default 60).
 */
final class AutosaveRecovery {
    /** A recovery file left by a process that is gone. */
    record Orphan(Path json, Path origin, Path originalFile, long pid) {
        /** Reads the fabric saved in it. */
        Fabric load() throws InputException {
            return FabricJson.read(json);
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
    private final long pid;

    AutosaveRecovery(Path dir, long pid) {
        this.dir = dir;
        this.pid = pid;
    }

    static AutosaveRecovery forThisProcess() {
        return new AutosaveRecovery(directory(), ProcessHandle.current().pid());
    }

    static Path directory() {
        String d = System.getProperty("fabriclab.recovery.dir");
        return d != null ? Path.of(d) : Path.of(System.getProperty("user.home"), ".fabriclab", "recovery");
    }

    static long intervalSeconds() {
        return Long.getLong("fabriclab.autosave.seconds", 60);
    }

    Path jsonFile() {
        return dir.resolve("recovery-" + pid + ".json");
    }

    Path originFile() {
        return dir.resolve("recovery-" + pid + ".origin");
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
        new Orphan(jsonFile(), originFile(), null, pid).delete();
    }

    /** Recovery files of processes that are no longer running, newest first. */
    List<Orphan> orphans() {
        List<Orphan> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "recovery-*.json")) {
            for (Path json : ds) {
                String n = json.getFileName().toString();
                long owner;
                try {
                    owner = Long.parseLong(n.substring("recovery-".length(), n.length() - ".json".length()));
                } catch (NumberFormatException e) {
                    continue;
                }
                Optional<ProcessHandle> alive = ProcessHandle.of(owner);
                if (owner == pid || alive.isPresent() && alive.get().isAlive()) {
                    continue;
                }
                Path origin = dir.resolve("recovery-" + owner + ".origin");
                Path original = null;
                if (Files.isRegularFile(origin)) {
                    String s = Files.readString(origin, StandardCharsets.UTF_8).trim();
                    original = s.isEmpty() ? null : Path.of(s);
                }
                out.add(new Orphan(json, origin, original, owner));
            }
        } catch (IOException e) {
            return out;
        }
        out.sort((a, b) -> {
            try {
                return Files.getLastModifiedTime(b.json()).compareTo(Files.getLastModifiedTime(a.json()));
            } catch (IOException e) {
                return 0;
            }
        });
        return out;
    }
}
