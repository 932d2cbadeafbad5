package io.fabriclab.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;

/**
 * A process for {@link KillDuringWriteTest} to kill in the middle of a write. Its first atomic
 * write stops once 64 KiB of the temporary file are written (the {@link AtomicFiles} test hook),
 * creates the marker file and waits there, so the test kills it at a known point, not after a
 * guessed delay.
 *
 * <p>Arguments: {@code MARKER cli ARGS...} runs the fabriclab command line;
 * {@code MARKER save FILE} saves a 16-leaf fabric the way the editor's Save does
 * ({@link FabricFiles#save}).
 */
public final class KillableWriter {
    private KillableWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path marker = Path.of(args[0]);
        AtomicFiles.midWriteHook = tmp -> {
            try {
                // Written aside, then renamed: the test polls for the marker and must never read it half-written.
                Path part = marker.resolveSibling(marker.getFileName() + ".part");
                Files.writeString(part, tmp.toString());
                Files.move(part, marker, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                Thread.sleep(Long.MAX_VALUE);
            } catch (Exception e) {
                Thread.currentThread().interrupt();
            }
        };
        String[] rest = Arrays.copyOfRange(args, 2, args.length);
        if (args[1].equals("cli")) {
            System.exit(io.fabriclab.cli.Main.run(rest));
        }
        Fabric f = LeafSpineGenerator.generate(LeafSpineParams.classic().withLeaves(16));
        f.setName("saved by the editor");
        FabricFiles.save(f, Path.of(rest[0]));
    }
}
