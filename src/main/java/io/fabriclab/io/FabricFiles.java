package io.fabriclab.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.fabriclab.model.Fabric;

/**
 * Picks the format of a fabric file from its name, for the CLI's {@code validate} and
 * {@code convert IN OUT} and the editor's open/save dialogs.
 */
public final class FabricFiles {

    /** The formats FabricLab reads or writes, with the file-name endings that select them. */
    public enum Format {
        /** The FabricLab fabric file (read and write). */
        FABRIC_JSON(true, ".json"),
        /** A containerlab topology, with its TopoViewer annotations side file (read and write). */
        CONTAINERLAB(true, ".clab.yml", ".clab.yaml", ".yml", ".yaml"),
        /** GraphML for yEd, Gephi, NetworkX (export only). */
        GRAPHML(false, ".graphml"),
        /** Graphviz DOT (export only). */
        DOT(false, ".dot");

        private final boolean readable;
        private final List<String> endings;

        Format(boolean readable, String... endings) {
            this.readable = readable;
            this.endings = List.of(endings);
        }

        public boolean readable() {
            return readable;
        }

        public List<String> endings() {
            return endings;
        }
    }

    private FabricFiles() {
    }

    /** The format a file name selects; an unknown ending is an {@link InputException} naming the known ones. */
    /** The format of a file name, or null when FabricLab does not know its ending. */
    public static Format formatOfOrNull(Path file) {
        try {
            return formatOf(file);
        } catch (InputException e) {
            return null;
        }
    }

    public static Format formatOf(Path file) throws InputException {
        Path name = file.getFileName();
        String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        for (Format f : Format.values()) {
            for (String ending : f.endings) {
                if (n.endsWith(ending) && n.length() > ending.length()) {
                    return f;
                }
            }
        }
        throw InputException.of(file.toString(), "$", null, "unknown file type (the name's ending selects the format)",
                allEndings(false));
    }

    /** Reads a fabric in any readable format. */
    public static Fabric load(Path file) throws InputException {
        Format f = formatOf(file);
        return switch (f) {
            case FABRIC_JSON -> FabricJson.read(file);
            case CONTAINERLAB -> ContainerlabYaml.read(file);
            case GRAPHML, DOT -> throw InputException.of(file.toString(), "$", null,
                    f.name().toLowerCase(Locale.ROOT) + " files are written by FabricLab but cannot be read back",
                    allEndings(true));
        };
    }

    /**
     * Writes a fabric in the format its name selects, atomically, and only if FabricLab can read it
     * back: the fabric's file form goes through the fabric file reader first (its limits and rules,
     * {@link io.fabriclab.model.FabricLimits}); a fabric it refuses is not written. This serves
     * {@code generate}, {@code convert}, the editor's Save and Export.
     *
     * @throws InputException for an unknown file ending, or a fabric the reader would refuse (each
     *                        problem with its JSON path in the fabric file form; exit code 2)
     * @throws IOException    when the file system refuses
     */
    public static void save(Fabric fabric, Path file) throws InputException, IOException {
        Format format = formatOf(file);
        String json = FabricJson.write(fabric);
        checkReadable(json, file);
        switch (format) {
            case FABRIC_JSON -> AtomicFiles.write(file, json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            case CONTAINERLAB -> ContainerlabYaml.save(fabric, file);
            case GRAPHML -> GraphExport.saveGraphMl(fabric, file);
            case DOT -> GraphExport.saveDot(fabric, file);
        }
    }

    /**
     * Refuses a fabric whose file form the fabric reader would refuse, with the reader's problems
     * (JSON paths in the fabric file form) under {@code sourceName}: what the editor's templates check.
     */
    public static void checkReadable(Fabric fabric, String sourceName) throws InputException {
        FabricJson.read(FabricJson.write(fabric), sourceName);
    }

    /** The same for a file about to be written: each problem says the file was not written. */
    private static void checkReadable(String fabricJson, Path file) throws InputException {
        try {
            FabricJson.read(fabricJson, file.toString());
        } catch (InputException e) {
            throw new InputException(e.problems().stream()
                    .map(p -> new InputProblem(p.file(), p.jsonPath(), p.value(),
                            "not written, FabricLab could not read it back: " + p.message(), p.allowed()))
                    .toList());
        }
    }

    /** "... (fabric json), .clab.yml, ... (containerlab)" for messages. */
    public static String allEndings(boolean readableOnly) {
        return Arrays.stream(Format.values()).filter(f -> !readableOnly || f.readable)
                .map(f -> String.join(", ", f.endings) + " (" + f.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")")
                .collect(Collectors.joining("; "));
    }
}
