package io.fabriclab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.FabricReader;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.workload.Nics;

import picocli.CommandLine;

/**
 * A preset workload on a fabric file ({@code simulate FABRIC --workload W}): the scenario JSON a
 * scenario file would hold is built here and read by {@link ScenarioJson}, so a preset is
 * validated and defaulted exactly as the same scenario written to a file (docs/format-scenario.md).
 * Only the choice of NICs and the defaults below are the preset's own.
 */
final class ScenarioPreset {
    /** The preset workloads, by their command-line names. */
    enum Kind {
        INCAST("incast", "incast"), ALL_REDUCE("all-reduce", "nccl"), ALL_TO_ALL("all-to-all", "nccl"),
        PERMUTATION("permutation", "permutation"), TRAINING("training", "training");

        final String cliName;
        /** The scenario file's workload {@code type}. */
        final String scenarioType;

        Kind(String cliName, String scenarioType) {
            this.cliName = cliName;
            this.scenarioType = scenarioType;
        }

        @Override
        public String toString() {
            return cliName;
        }

        static Kind parse(String s) {
            for (Kind k : values()) {
                if (k.cliName.equals(s.toLowerCase(Locale.ROOT))) {
                    return k;
                }
            }
            throw new CommandLine.TypeConversionException("'" + s + "' is not a preset workload; one of incast, all-reduce, "
                    + "all-to-all, permutation, training:MODEL");
        }
    }

    /** A preset and, for a training step, its model (a key of TrainingJob.PRESETS). */
    record Choice(Kind kind, String model) {
        static Choice parse(String s) {
            String v = s.strip();
            int c = v.indexOf(':');
            if (c > 0 && v.substring(0, c).equalsIgnoreCase("training")) {
                String m = v.substring(c + 1).toLowerCase(Locale.ROOT);
                if (!io.fabriclab.workload.TrainingJob.PRESETS.containsKey(m)) {
                    throw new CommandLine.TypeConversionException("'" + s + "': training:MODEL with MODEL one of "
                            + String.join(", ", new java.util.TreeSet<>(io.fabriclab.workload.TrainingJob.PRESETS.keySet())));
                }
                return new Choice(Kind.TRAINING, m);
            }
            Kind k = Kind.parse(v);
            if (k == Kind.TRAINING) {
                return new Choice(k, "llama-7b");
            }
            return new Choice(k, null);
        }

        @Override
        public String toString() {
            return model == null ? kind.cliName : kind.cliName + ":" + model;
        }
    }

    /** picocli converter for {@code --workload} with a model. */
    static final class ChoiceConverter implements CommandLine.ITypeConverter<Choice> {
        @Override
        public Choice convert(String value) {
            return Choice.parse(value);
        }
    }

    /** picocli converter for {@code --workload}. */
    static final class KindConverter implements CommandLine.ITypeConverter<Kind> {
        @Override
        public Kind convert(String value) {
            return Kind.parse(value);
        }
    }

    /** Incast senders when --senders is absent: the 8:1 incast of the shipped incast scenarios. */
    static final int DEFAULT_INCAST_SENDERS = 8;
    /** Incast bytes per sender: 1 MiB. */
    static final long DEFAULT_INCAST_BYTES = 1L << 20;
    /** All-reduce and all-to-all size S (nccl-tests' buffer size): 4 MiB. */
    static final long DEFAULT_COLLECTIVE_BYTES = 4L << 20;
    /** Permutation bytes per NIC: 2 MB, as htsim's permutation benchmark (bench-fattree-k16-permutation.json). */
    static final long DEFAULT_PERMUTATION_BYTES = 2_000_000L;

    private static final ObjectMapper MAPPER = io.fabriclab.io.JsonInput.strictMapper();

    private final Kind kind;
    private final String model;
    private final Integer senders;
    private final Long bytes;
    private final Integer priority;
    private final String profile;
    private final Double durationUs;
    private final Long seed;
    private String json;
    /** The transport the scenario names (compare --workload); null: the scenario's default. */
    private io.fabriclab.model.Transport transport;

    /** The same preset under {@code t}. */
    ScenarioPreset transport(io.fabriclab.model.Transport t) {
        this.transport = t;
        return this;
    }

    ScenarioPreset(Kind kind, Integer senders, Long bytes, Integer priority, String profile, Double durationUs, Long seed) {
        this(new Choice(kind, kind == Kind.TRAINING ? "llama-7b" : null), senders, bytes, priority, profile, durationUs, seed);
    }

    ScenarioPreset(Choice choice, Integer senders, Long bytes, Integer priority, String profile, Double durationUs, Long seed) {
        this.kind = choice.kind();
        this.model = choice.model();
        this.senders = senders;
        this.bytes = bytes;
        this.priority = priority;
        this.profile = profile;
        this.durationUs = durationUs;
        this.seed = seed;
    }

    /**
     * Reads the fabric file and builds the preset's scenario on it.
     *
     * @param scenarioDir the directory the scenario text would live in (where --save-scenario
     *     writes it; else the fabric's): its "fabric" is the fabric file relative to it
     * @throws io.fabriclab.io.ScenarioException for a bad option value, with the option's name
     * @throws IllegalArgumentException when the fabric has too few NICs for the preset
     */
    Scenario read(Path fabricFile, FabricReader fabrics, Path scenarioDir) throws IOException {
        Fabric fabric = fabrics.read(fabricFile);
        Path fabricAbs = fabricFile.toAbsolutePath().normalize();
        Path dir = scenarioDir != null ? scenarioDir.toAbsolutePath().normalize() : fabricAbs.getParent();
        String ref;
        try {
            ref = dir.relativize(fabricAbs).toString().replace('\\', '/');
        } catch (IllegalArgumentException e) {
            ref = fabricAbs.toString(); // another root (Windows drive): the absolute path
        }
        json = scenarioJson(fabric, ref);
        // The fabric just read is handed in, so the file is read once.
        try {
            return ScenarioJson.parse(json, "--workload " + kind + " on " + fabricFile, dir, fabrics, fabric);
        } catch (ScenarioException e) {
            throw new ScenarioException(optionNames(e.getMessage()), e);
        }
    }

    /** The scenario text of the last {@link #read}: what --save-scenario writes. */
    String json() {
        return json;
    }

    /** The scenario fields a preset sets, as the options that set them, so a message names what the user typed. */
    static String optionNames(String message) {
        return message.replace("$.workloads[0].bytesPerSender", "--bytes").replace("$.workloads[0].bytes", "--bytes")
                .replace("$.workloads[0].priority", "--priority").replace("$.profile", "--profile")
                .replace("$.durationUs", "--duration-us").replace("$.seed", "--seed");
    }

    /** The scenario file this preset stands for. */
    String scenarioJson(Fabric fabric, String fabricRef) {
        List<String> nics = Nics.all(fabric);
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", ScenarioJson.SCHEMA_VERSION);
        root.put("name", fabric.name() + " " + kind);
        root.put("description", "fabriclab simulate --workload " + kind);
        root.put("fabric", fabricRef);
        if (profile != null) {
            root.put("profile", profile);
        }
        if (transport != null) {
            root.put("transport", transport.jsonName());
        }
        if (seed != null) {
            root.put("seed", seed);
        }
        if (durationUs != null) {
            root.put("durationUs", durationUs);
        }
        ArrayNode workloads = root.putArray("workloads");
        ObjectNode w = workloads.addObject();
        w.put("type", kind.scenarioType);
        switch (kind) {
            case INCAST -> {
                if (nics.size() < 2) {
                    throw new IllegalArgumentException(fabricRef + " has " + nics.size()
                            + " connected NIC(s); an incast needs a receiver and at least one sender");
                }
                int n = senders != null ? senders : Math.min(DEFAULT_INCAST_SENDERS, nics.size() - 1);
                if (n < 1 || n > nics.size() - 1) {
                    throw new IllegalArgumentException("--senders " + n + ": allowed 1 to " + (nics.size() - 1)
                            + " (the NICs of " + fabricRef + " other than the receiver " + nics.get(0) + ")");
                }
                // The live view's choice (WorkloadPreset.incastNics): the senders are other servers, spread
                // over the fabric, never the receiver's own.
                List<String> chosen = io.fabriclab.workload.WorkloadPreset.incastNics(fabric, n);
                if (chosen.size() - 1 < n) {
                    throw new IllegalArgumentException("--senders " + n + ": " + fabricRef + " has " + (chosen.size() - 1)
                            + " servers other than the receiver's; an incast takes one NIC from each");
                }
                w.put("receiver", chosen.get(0));
                ArrayNode s = w.putArray("senders");
                chosen.subList(1, chosen.size()).forEach(s::add);
                w.put("bytesPerSender", bytes != null ? bytes : DEFAULT_INCAST_BYTES);
            }
            case ALL_REDUCE, ALL_TO_ALL -> {
                requireTwo(nics, fabricRef);
                // The live view's collective (WorkloadPreset.collective): every GPU (all-to-all: of the first
                // 32 servers), algorithm chosen as NCCL's tuning does.
                w.put("op", kind == Kind.ALL_REDUCE ? "allreduce" : "alltoall");
                w.put("name", kind.cliName);
                if (kind == Kind.ALL_TO_ALL) {
                    w.put("maxServers", io.fabriclab.workload.WorkloadPreset.ALL_TO_ALL_MAX_SERVERS);
                }
                w.put("bytes", bytes != null ? bytes : DEFAULT_COLLECTIVE_BYTES);
            }
            case TRAINING -> {
                requireTwo(nics, fabricRef);
                // Megatron-style defaults: TP the server's GPUs, PP 1, DP the rest (TrainingJob.on).
                w.put("preset", model);
                if (durationUs == null) {
                    // Room for the step: as the live view gives it (StepAnalysis.maxTimePs).
                    io.fabriclab.workload.TrainingJob job = io.fabriclab.workload.TrainingJob.on(fabric, model,
                            io.fabriclab.workload.TrainingJob.PRESETS.get(model), null, null, null, 1, 0, 0, true,
                            io.fabriclab.workload.TrainingJob.DEFAULT_BUCKET_BYTES, false,
                            io.fabriclab.workload.TrainingJob.DEFAULT_GRADIENT_BYTES);
                    root.put("maxTimeUs", io.fabriclab.sim.StepAnalysis.maxTimePs(job) / 1e6);
                }
            }
            case PERMUTATION -> {
                requireTwo(nics, fabricRef);
                // nics absent = every connected NIC; the derangement is seeded by the scenario seed.
                w.put("bytes", bytes != null ? bytes : DEFAULT_PERMUTATION_BYTES);
            }
        }
        if (priority != null && kind != Kind.TRAINING) {
            w.put("priority", priority);
        }
        return root.toPrettyString() + "\n";
    }

    private static void requireTwo(List<String> nics, String fabricRef) {
        if (nics.size() < 2) {
            throw new IllegalArgumentException(fabricRef + " has " + nics.size() + " connected NIC(s); the workload needs at least 2");
        }
    }

    /**
     * Whether the JSON file's top-level object has {@code field} (read as a stream, nested values
     * skipped); false when the file cannot be read or is not a JSON object. Used only for a hint.
     */
    static boolean hasTopLevelField(Path file, String field) {
        try (JsonParser p = MAPPER.getFactory().createParser(file.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                if (field.equals(p.currentName())) {
                    return true;
                }
                p.nextToken();
                p.skipChildren();
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * {@code <fabric-name>-<workload>-results.json}: the fabric's name with every character other
     * than letters, digits, '.', '_' and '-' replaced by '-', so any name gives a plain file name.
     */
    static String defaultOutputName(String fabricName, Kind kind) {
        String base = fabricName == null || fabricName.isBlank() ? "fabric"
                : fabricName.strip().replaceAll("[^A-Za-z0-9._-]", "-").replaceAll("^[.]+", "");
        if (base.isEmpty()) {
            base = "fabric";
        }
        return base + "-" + kind + "-results.json";
    }
}
