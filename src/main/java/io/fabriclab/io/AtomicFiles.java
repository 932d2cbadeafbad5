package io.fabriclab.io;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way FabricLab writes a file: a crash, a kill or a full disk leaves the old file or the
 * complete new one, never half of it.
 *
 * <ul>
 * <li>The bytes go to a temporary file in the target's directory, named
 * {@code .<name>~<pid>-<start>-<random>.fabriclab-tmp} (the writing process's id and start time),
 * are forced to disk, renamed over the target in one atomic step (POSIX rename), and the
 * directory is forced so the rename itself survives a power loss.</li>
 * <li>A temporary file left by an interrupted write (kill -9, power loss) is deleted by the first
 * write of a later process into that directory, once its owner (id plus start time) is gone; Ctrl-C
 * (SIGINT, SIGTERM) deletes the files being written on the way out.</li>
 * <li>A target that is a symbolic link stays a link: the file it points to is replaced.</li>
 * <li>Only regular files are written: an existing target that is a FIFO, a socket or a device
 * (/dev/null, /dev/full) is refused before anything is written, since the rename would replace
 * the node itself (as root, the machine's /dev/null).</li>
 * <li>The new file keeps the permissions of the file it replaces (a new file gets rw-r--r--), or
 * is owner-only (0600) with {@link Option#OWNER_ONLY}.</li>
 * <li>{@link #writeAll} replaces several files that belong together (containerlab topology and
 * annotations): every temporary file is written and forced before the first rename, so a failure
 * while writing leaves all of them old. What remains is the moment between the renames (two
 * system calls, no writing in between): a power loss exactly there leaves the first file new and
 * the second old.</li>
 * </ul>
 */
public final class AtomicFiles {
    /** Writes a file's content to a stream (which it must not close). */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** How the file is written. */
    public enum Option {
        /** Readable by the owner only (0600), whatever the file had before: switch configurations. */
        OWNER_ONLY
    }

    /** The ending of every temporary file; {@link #cleanStale} deletes only files with it. */
    public static final String TEMP_SUFFIX = ".fabriclab-tmp";
    private static final Pattern TEMP_NAME = Pattern.compile("^\\..*~(\\d+)-(\\d+)-[0-9a-f]+" + Pattern.quote(TEMP_SUFFIX) + "$");
    private static final int MAX_NAME_IN_TEMP = 100;
    private static final int MAX_LINK_HOPS = 40;

    /** Temporary files being written by this process, deleted by the shutdown hook. */
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookInstalled;
    /** Directories this process has cleaned of leftovers already. */
    private static final Set<Path> CLEANED = ConcurrentHashMap.newKeySet();
    /** Called once per file after its first 64 KiB (or all of it, if less) reach the temporary file; tests kill there. */
    static volatile Consumer<Path> midWriteHook;
    private static final int HOOK_AFTER_BYTES = 64 * 1024;

    private AtomicFiles() {
    }

    public static void write(Path target, byte[] bytes, Option... options) throws IOException {
        write(target, out -> out.write(bytes), options);
    }

    public static void write(Path target, Content content, Option... options) throws IOException {
        Map<Path, Content> one = new LinkedHashMap<>();
        one.put(target, content);
        writeAll(one, options);
    }

    /**
     * Replaces several files as one step as far as a file system allows: all temporary files are
     * written and forced first, then renamed in the map's order (see the class comment for the
     * window that remains).
     */
    public static void writeAll(Map<Path, Content> files, Option... options) throws IOException {
        installShutdownHook();
        boolean ownerOnly = List.of(options).contains(Option.OWNER_ONLY);
        List<Path[]> staged = new ArrayList<>();
        Path current = null;
        try {
            for (Map.Entry<Path, Content> e : files.entrySet()) {
                current = e.getKey();
                Path real = writeTarget(e.getKey());
                if (Files.isDirectory(real)) {
                    // Found now, before any file of the set is renamed.
                    throw new IOException(e.getKey() + " is a directory");
                }
                String special = notARegularFile(real);
                if (special != null) {
                    throw new IOException(e.getKey() + " " + special);
                }
                Path dir = real.getParent();
                Files.createDirectories(dir);
                if (CLEANED.add(dir)) {
                    // Once per directory and process: a thousand switch configurations scan it once.
                    cleanStale(dir);
                }
                Path tmp = createTemp(dir, real.getFileName().toString());
                staged.add(new Path[] {tmp, real});
                writeTemp(tmp, e.getValue());
                setPermissions(real, tmp, ownerOnly);
            }
            for (Path[] s : staged) {
                current = s[1];
                move(s[0], s[1]);
                IN_FLIGHT.remove(s[0]);
            }
            for (Path[] s : staged) {
                forceDirectory(s[1].getParent());
            }
        } catch (IOException e) {
            throw naming(e, current);
        } finally {
            for (Path[] s : staged) {
                if (IN_FLIGHT.remove(s[0])) {
                    Files.deleteIfExists(s[0]);
                }
            }
        }
    }

    /**
     * A failure while writing names the file the user asked for (a full disk says only "No space
     * left on device"; a failure on the temporary file names the temporary file, which the user never
     * named). Messages that name the file already are kept, and so is the exception's type.
     */
    private static IOException naming(IOException e, Path target) {
        String msg = String.valueOf(e.getMessage());
        if (target == null || msg.contains(target.toString())) {
            return e;
        }
        String reason = e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null ? fse.getReason() : msg;
        IOException named = new IOException(target + ": " + reason, e);
        return named;
    }

    /**
     * The file a write to {@code target} replaces: the target itself, or, when it is a symbolic
     * link (also a chain of them, also a dangling one), the file at its end, so the link survives.
     */
    public static Path writeTarget(Path target) throws IOException {
        Path p = target.toAbsolutePath().normalize();
        for (int hops = 0; Files.isSymbolicLink(p); hops++) {
            if (hops == MAX_LINK_HOPS) {
                throw new IOException(target + ": too many levels of symbolic links");
            }
            Path link = Files.readSymbolicLink(p);
            p = p.getParent().resolve(link).toAbsolutePath().normalize();
        }
        return p;
    }

    /**
     * Why {@code target} (already resolved through {@link #writeTarget}) cannot be replaced: it
     * exists and is neither a regular file nor a directory (a FIFO, a socket, a device node); null
     * when it is absent or a regular file. Directories are the caller's to name.
     */
    public static String notARegularFile(Path target) {
        if (!Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.isDirectory(target)
                || Files.isRegularFile(target)) {
            return null;
        }
        return "is not a regular file (a FIFO, a socket or a device such as /dev/null); "
                + "FabricLab writes only regular files";
    }

    /** Whether a file name is one of FabricLab's temporary files. */
    public static boolean isTemp(Path file) {
        Path n = file.getFileName();
        return n != null && TEMP_NAME.matcher(n.toString()).matches();
    }

    /**
     * Deletes the temporary files in {@code dir} whose writer (process id and start time) is no
     * longer running: what a kill -9 or a power loss during a write left behind. Returns how many.
     */
    public static int cleanStale(Path dir) {
        int deleted = 0;
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, ".*" + TEMP_SUFFIX)) {
            for (Path p : ds) {
                Matcher m = TEMP_NAME.matcher(p.getFileName().toString());
                if (!m.matches() || IN_FLIGHT.contains(p.toAbsolutePath().normalize())) {
                    continue;
                }
                long pid;
                long start;
                try {
                    pid = Long.parseLong(m.group(1));
                    start = Long.parseLong(m.group(2));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (!ProcessKey.isRunning(pid, start) || ProcessKey.current().is(pid, start)) {
                    try {
                        Files.deleteIfExists(p);
                        deleted++;
                    } catch (IOException e) {
                        // Someone else's file we may not delete: left for its owner.
                    }
                }
            }
        } catch (IOException e) {
            return deleted;
        }
        return deleted;
    }

    /** Tests only: runs right after a temporary file is created (AtomicFilesTest: a clean-up at that moment). */
    static volatile Runnable afterTempCreated;

    private static Path createTemp(Path dir, String name) throws IOException {
        String shortName = name.length() > MAX_NAME_IN_TEMP ? name.substring(0, MAX_NAME_IN_TEMP) : name;
        ProcessKey me = ProcessKey.current();
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve("." + shortName + "~" + me.pid() + "-" + me.startMillis() + "-"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE) + TEMP_SUFFIX);
            // In flight before it exists: another thread's cleanStale of this directory (the first
            // write to it in this process) must never take it for one of this process's leftovers.
            Path key = tmp.toAbsolutePath().normalize();
            IN_FLIGHT.add(key);
            try {
                if (posix) {
                    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                } else {
                    Files.createFile(tmp);
                }
                Runnable hook = afterTempCreated;
                if (hook != null) {
                    hook.run();
                }
                return tmp;
            } catch (FileAlreadyExistsException e) {
                IN_FLIGHT.remove(key);
                if (attempt > 10) {
                    throw e;
                }
            } catch (IOException | RuntimeException e) {
                IN_FLIGHT.remove(key);
                throw e;
            }
        }
    }

    private static void writeTemp(Path tmp, Content content) throws IOException {
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            HookedStream hooked = new HookedStream(Channels.newOutputStream(ch), tmp);
            BufferedOutputStream out = new BufferedOutputStream(hooked, 1 << 16);
            content.writeTo(out);
            out.flush();
            hooked.end();
            ch.force(true);
        }
    }

    /**
     * A temporary file is created owner-only (0600); the saved file keeps the permissions of the file
     * it replaces, or gets the usual rw-r--r-- when new, so a saved fabric stays readable by the team.
     */
    private static void setPermissions(Path target, Path tmp, boolean ownerOnly) throws IOException {
        if (!tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        Set<PosixFilePermission> perms = ownerOnly ? PosixFilePermissions.fromString("rw-------")
                : Files.exists(target) ? Files.getPosixFilePermissions(target)
                : PosixFilePermissions.fromString("rw-r--r--");
        Files.setPosixFilePermissions(tmp, perms);
    }

    private static void move(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            // Some file systems (e.g. certain network mounts) cannot rename atomically; still replace.
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Makes the rename itself durable; not every platform can open a directory, which is harmless. */
    private static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Best effort only.
        }
    }

    /** Ctrl-C or a SIGTERM during a write: the JVM runs shutdown hooks, which delete what was half written. */
    private static void installShutdownHook() {
        if (hookInstalled) {
            return;
        }
        synchronized (IN_FLIGHT) {
            if (hookInstalled) {
                return;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (Path p : IN_FLIGHT) {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException e) {
                        // The next write into that directory removes it.
                    }
                }
            }, "fabriclab-temp-cleanup"));
            hookInstalled = true;
        }
    }

    /** Counts bytes so that the test hook runs once the temporary file is partly written. */
    private static final class HookedStream extends FilterOutputStream {
        private final Path tmp;
        private long written;
        private boolean called;

        HookedStream(OutputStream out, Path tmp) {
            super(out);
            this.tmp = tmp;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            written += len;
            if (written >= HOOK_AFTER_BYTES) {
                end();
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        void end() {
            Consumer<Path> hook = midWriteHook;
            if (!called && hook != null) {
                called = true;
                hook.accept(tmp);
            }
        }
    }

    /**
     * A process named by its id and start time: an id alone is reused by the system (after a
     * reboot, very likely), the pair is not. Used for temporary files and the editor's recovery files.
     */
    public record ProcessKey(long pid, long startMillis) {
        private static final ProcessKey CURRENT = of(ProcessHandle.current());

        public static ProcessKey current() {
            return CURRENT;
        }

        /** The key of a process; start 0 where the system does not tell (then only the id can be compared). */
        public static ProcessKey of(ProcessHandle h) {
            return new ProcessKey(h.pid(), h.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L));
        }

        public boolean is(long pid, long startMillis) {
            return this.pid == pid && this.startMillis == startMillis;
        }

        /**
         * Whether the process with this id and start time is still running. A start time of 0 (not
         * known) falls back to the id alone, which errs towards "running" (nothing is taken away).
         */
        public static boolean isRunning(long pid, long startMillis) {
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isEmpty() || !h.get().isAlive()) {
                return false;
            }
            if (startMillis == 0) {
                return true;
            }
            Optional<java.time.Instant> started = h.get().info().startInstant();
            // Start times are reported to the clock tick (10 ms on Linux); 1 s apart is another process.
            return started.isEmpty() || Math.abs(started.get().toEpochMilli() - startMillis) < 1000;
        }
    }
}
