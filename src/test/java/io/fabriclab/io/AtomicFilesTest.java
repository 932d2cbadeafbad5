package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.diagram.TieredLayout;
import io.fabriclab.io.config.ConfigExporter;
import io.fabriclab.io.config.Vendor;
import io.fabriclab.model.Fabric;
import io.fabriclab.topology.ExampleFabrics;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;

/** The one writer: links kept, leftovers cleaned, failures leave the old files, pairs replaced together. */
class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void aSymlinkedOutputStaysALinkAndItsTargetIsReplaced() throws Exception {
        Path realDir = Files.createDirectory(dir.resolve("runs"));
        Path real = Files.writeString(realDir.resolve("2026-11-25.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("latest.json"), Path.of("runs/2026-11-25.json"));
        FabricJson.save(ExampleFabrics.deadlockProne(), link);
        assertTrue(Files.isSymbolicLink(link), "still a link");
        assertTrue(Files.readString(real).contains("\"schemaVersion\""), "the file it points to holds the fabric");
        // A link whose target does not exist yet: the target is created, the link kept.
        Path dangling = Files.createSymbolicLink(dir.resolve("next.json"), realDir.resolve("new.json"));
        AtomicFiles.write(dangling, "new".getBytes());
        assertTrue(Files.isSymbolicLink(dangling));
        assertEquals("new", Files.readString(realDir.resolve("new.json")));
    }

    /** A FIFO or a socket (a device such as /dev/null as well) is never replaced by a regular file. */
    @Test
    void aTargetThatIsNotARegularFileIsRefusedAndKept() throws Exception {
        Path fifo = dir.resolve("pipe");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(fifo, "x".getBytes()));
        assertTrue(e.getMessage().contains(fifo + " is not a regular file"), e.getMessage());
        assertTrue(Files.exists(fifo) && !Files.isRegularFile(fifo), "still a FIFO");
        try (var server = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            Path socket = dir.resolve("sock");
            server.bind(java.net.UnixDomainSocketAddress.of(socket));
            assertThrows(IOException.class, () -> AtomicFiles.write(socket, "x".getBytes()));
            assertFalse(Files.isRegularFile(socket));
        }
        assertEquals(List.of("pipe", "sock"), names(), "no temporary file left");
    }

    /** Item 11 of issue 31: a full disk said "No space left on device" and named no file. */
    @Test
    void aFailedWriteNamesTheFileNotItsTemporaryFile() throws Exception {
        Path f = dir.resolve("results.json");
        IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(f, out -> {
            out.write(new byte[100]);
            throw new IOException("No space left on device");
        }));
        assertEquals(f + ": No space left on device", e.getMessage());
        Path ro = dir.resolve("sub");
        Files.createDirectory(ro);
        IOException fs = assertThrows(IOException.class, () -> AtomicFiles.write(ro.resolve("x.json"), out -> {
            throw new java.nio.file.FileSystemException(ro.resolve(".x.json~1-2-3" + AtomicFiles.TEMP_SUFFIX).toString(), null,
                    "No space left on device");
        }));
        assertEquals(ro.resolve("x.json") + ": No space left on device", fs.getMessage());
        assertEquals(List.of("sub"), names());
    }

    @Test
    void leftoversOfAWriterThatIsGoneAreDeletedByTheNextWrite() throws Exception {
        // What a kill -9 leaves: a temp file named for its writer, a process that has finished.
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long start = gone.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(1L);
        Path leftover = Files.writeString(dir.resolve(".r.json~" + gone.pid() + "-" + start + "-1f" + AtomicFiles.TEMP_SUFFIX),
                "half");
        // One of a running process (this one, started at another time: its id reused) goes too.
        Path reused = Files.writeString(dir.resolve(".r.json~" + ProcessHandle.current().pid() + "-12345-2a"
                + AtomicFiles.TEMP_SUFFIX), "half");
        // Not ours: kept.
        Path other = Files.writeString(dir.resolve(".r.json.tmp"), "someone else's");
        AtomicFiles.write(dir.resolve("r.json"), "whole".getBytes());
        assertFalse(Files.exists(leftover));
        assertFalse(Files.exists(reused));
        assertTrue(Files.exists(other));
        assertEquals(List.of(".r.json.tmp", "r.json"), names());
    }

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemp() throws Exception {
        Path f = Files.writeString(dir.resolve("results.json"), "old results");
        IOException e = assertThrows(IOException.class, () -> AtomicFiles.write(f, out -> {
            out.write(new byte[200_000]);
            throw new IOException("disk full");
        }));
        assertEquals(f + ": disk full", e.getMessage(), "the file is named");
        assertEquals("old results", Files.readString(f));
        assertEquals(List.of("results.json"), names());
    }

    @Test
    void aPairIsReplacedTogetherOrNotAtAll() throws Exception {
        Path a = Files.writeString(dir.resolve("a"), "old a");
        Path b = Files.writeString(dir.resolve("b"), "old b");
        Map<Path, AtomicFiles.Content> pair = new LinkedHashMap<>();
        pair.put(a, out -> out.write("new a".getBytes()));
        pair.put(b, out -> {
            throw new IOException("failed while writing b");
        });
        assertThrows(IOException.class, () -> AtomicFiles.writeAll(pair));
        assertEquals("old a", Files.readString(a), "a was not renamed before b was written");
        assertEquals(List.of("a", "b"), names());
    }

    @Test
    void containerlabTopologyAndAnnotationsNeverEndHalfNew() throws Exception {
        Path topo = dir.resolve("lab.clab.yml");
        Fabric small = laidOut(2);
        FabricFiles.save(small, topo);
        byte[] oldTopo = Files.readAllBytes(topo);
        // The side file cannot be replaced (a directory with content is in its place).
        Path ann = ContainerlabYaml.annotationsPath(topo);
        Files.delete(ann);
        Files.createDirectory(ann);
        Files.writeString(ann.resolve("x"), "x");
        assertThrows(IOException.class, () -> FabricFiles.save(laidOut(4), topo));
        assertArrayEquals(oldTopo, Files.readAllBytes(topo), "the topology is the old one, like its side file");
    }

    @Test
    void switchConfigurationsAreOwnerOnlyAndWrittenAtomically() throws Exception {
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic());
        Path cfg = ConfigExporter.fileFor(dir, f.switches().get(0), Vendor.EOS);
        Files.writeString(cfg, "old");
        Files.setPosixFilePermissions(cfg, PosixFilePermissions.fromString("rw-r--r--"));
        new ConfigExporter().exportAll(f, dir, Vendor.EOS);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cfg)));
        assertFalse(Files.readString(cfg).equals("old"));
        // A saved fabric keeps the permissions of the file it replaces.
        Path fabric = Files.writeString(dir.resolve("f.json"), "old");
        Files.setPosixFilePermissions(fabric, PosixFilePermissions.fromString("rw-rw-r--"));
        FabricJson.save(f, fabric);
        assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(fabric)));
    }

    @Test
    void thePriceBookIsWrittenAtomically() throws Exception {
        Path file = dir.resolve("prices.json");
        Path link = Files.createSymbolicLink(dir.resolve("current-prices.json"), file);
        PriceBookFile.save(PriceBookFile.sample(), link);
        assertTrue(Files.isSymbolicLink(link), "written through AtomicFiles, which keeps links");
        assertEquals(PriceBookFile.sample().currency(), PriceBookFile.load(file).currency());
    }

    @Test
    void aCleanUpOfTheDirectoryWhileAFileIsBeingWrittenLeavesItsTemporaryFile(@TempDir Path tmp) throws Exception {
        // The first write to a directory in a process cleans that directory's stale temporary files,
        // this process's own not in flight among them. A sweep's two workers write their first run
        // files into a new directory at once: one cleans while the other's temporary file has just
        // been created. The clean-up is run exactly then (the test hook after the file is created):
        // the write must still land, its temporary file being in flight from before it existed.
        Path file = tmp.resolve("runs").resolve("run0.json");
        AtomicFiles.afterTempCreated = () -> AtomicFiles.cleanStale(file.getParent());
        try {
            AtomicFiles.write(file, "{\"run\": 0}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            AtomicFiles.afterTempCreated = null;
        }
        assertEquals("{\"run\": 0}", Files.readString(file));
        try (Stream<Path> l = Files.list(file.getParent())) {
            assertEquals(List.of("run0.json"), l.map(x -> x.getFileName().toString()).toList());
        }
    }


    private static Fabric laidOut(int leaves) {
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic().withLeaves(leaves));
        new TieredLayout().placeMissing(f, f.layout());
        return f;
    }

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
