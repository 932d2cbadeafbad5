package io.fabriclab.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import io.fabriclab.sweep.RunRow;
import io.fabriclab.sweep.RunSpec;
import io.fabriclab.sweep.SweepRunner;

/**
 * A sweep's output directory on any Hadoop file system (file:, hdfs:, s3a:, abfs:, gs: ... whatever
 * connector is on the class path), laid out as the local runner lays it out: one file per finished
 * run, {@code DIR/runs/<hash>.json} ({@link SweepRunner#RUNS_DIR}, {@link RunRow#toJson()}), and the
 * summary files beside {@code runs/}.
 *
 * <p>Serializable so that each Spark task opens the directory itself: it carries the driver's Hadoop
 * configuration as plain strings (a Hadoop {@link Configuration} is not serializable), so credentials
 * and connector settings given to spark-submit ({@code --conf spark.hadoop.fs.s3a...}) reach every
 * executor.
 */
final class RunStore implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String dir;
    private final Map<String, String> conf;
    private transient FileSystem fs;

    RunStore(String dir, Configuration conf) {
        this.dir = stripSlash(dir);
        this.conf = new HashMap<>();
        for (Map.Entry<String, String> e : conf) {
            this.conf.put(e.getKey(), e.getValue());
        }
    }

    private static String stripSlash(String d) {
        String s = d;
        while (s.length() > 1 && s.endsWith("/") && !s.endsWith(":/") && !s.endsWith("://")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    /** The directory as given (a URI or a path on the default file system). */
    String dir() {
        return dir;
    }

    Path root() {
        return new Path(dir);
    }

    Path runFile(String hash) {
        return new Path(new Path(root(), SweepRunner.RUNS_DIR), hash + ".json");
    }

    synchronized FileSystem fs() throws IOException {
        if (fs == null) {
            Configuration c = new Configuration(false);
            conf.forEach(c::set);
            fs = root().getFileSystem(c);
            // The local file system of Hadoop writes a .crc file beside each file; the local runner's
            // directory has none, and a resumed local sweep must find only its own files there.
            fs.setWriteChecksum(false);
            fs.setVerifyChecksum(false);
        }
        return fs;
    }

    /**
     * The finished run of {@code spec} when its file is complete and for the same scenario, relabelled
     * for the spec (runs with one hash share one file), as {@link SweepRunner#finished} does locally;
     * null when there is none, or it is not a complete run file (the run is then simulated again).
     */
    RunRow finished(RunSpec spec) throws IOException {
        return finished(spec, null);
    }

    /**
     * As {@link #finished(RunSpec)}; a file that is there but not a valid run of the spec (checked
     * by {@link RunRow#fromJson}, as the local runner checks it) is told to {@code rejected} as
     * "file: why", then ignored.
     */
    RunRow finished(RunSpec spec, java.util.function.Consumer<String> rejected) throws IOException {
        Path f = runFile(spec.hash());
        byte[] bytes;
        try (InputStream in = fs().open(f)) {
            if (fs().getFileStatus(f).getLen() > 16L * 1024 * 1024) {
                throw new IOException("file is " + fs().getFileStatus(f).getLen() + " bytes; a run file is at most 16 MB");
            }
            bytes = in.readAllBytes();
        } catch (FileNotFoundException e) {
            return null;
        } catch (IOException e) {
            if (rejected != null) {
                rejected.accept(f + ": " + e.getMessage());
            }
            return null;
        }
        RunRow r;
        try {
            r = RunRow.fromJson(bytes);
            if (!r.hash().equals(spec.hash())) {
                throw new IOException("hash: " + r.hash() + " is another run's; allowed: " + spec.hash() + " (the file's name)");
            }
        } catch (IOException | RuntimeException e) {
            if (rejected != null) {
                rejected.accept(f + ": " + e.getMessage());
            }
            return null;
        }
        return new RunRow(spec.point(), spec.seedIndex(), spec.seed(), spec.hash(), spec.values(), r.status(),
                r.message(), r.metrics(), r.wallMillis(), r.ranBy());
    }

    /**
     * Writes a file so that readers see it whole or not at all: the bytes go to a hidden temporary
     * file in the same directory, which is then renamed (atomic on HDFS and on a local disk; on an
     * object store the object appears only when it is complete either way). When the target exists
     * already (another attempt of the same task wrote it), it is kept for a run file, replaced for a
     * summary file.
     *
     * @param attempt distinguishes concurrent writers of one file (Spark's task attempt id)
     */
    void writeAtomically(Path target, byte[] bytes, String attempt, boolean replace) throws IOException {
        FileSystem f = fs();
        Path tmp = new Path(target.getParent(), "." + target.getName() + "." + attempt + ".tmp");
        try (OutputStream out = f.create(tmp, true)) {
            out.write(bytes);
        }
        if (replace && f.exists(target)) {
            f.delete(target, false);
        }
        if (!f.rename(tmp, target)) {
            f.delete(tmp, false);
            if (!f.exists(target)) {
                throw new IOException("could not rename " + tmp + " to " + target);
            }
        }
    }

    void mkdirs() throws IOException {
        Path runs = new Path(root(), SweepRunner.RUNS_DIR);
        if (!fs().mkdirs(runs)) {
            throw new IOException("could not create " + runs);
        }
    }
}
