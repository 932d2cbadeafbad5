package io.fabriclab.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Layout;
import io.fabriclab.model.Link;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.WredEcn;

/**
 * The FabricLab fabric file: JSON, versioned ({@code schemaVersion}), explicit units in every field
 * name, written in one canonical form (fixed field order, 2-space indentation, trailing newline)
 * so that files kept in git diff cleanly and {@code write(read(text)).equals(text)} for every file
 * this class wrote. Reading checks everything and reports every problem at once
 * ({@link InputException}); see docs/format.md for each field.
 */
public final class FabricJson {
    /** The schema version this FabricLab writes and the newest it reads. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper READER = JsonInput.jsonMapper();
    private static final ObjectMapper WRITER = JsonInput.writingMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private FabricJson() {
    }

    /** Reads and validates a fabric file. Never throws anything but {@link InputException} for bad input. */
    public static Fabric read(Path file) throws InputException {
        Problems problems = new Problems(file.toString());
        String text = JsonInput.readText(file, problems);
        problems.throwIfAny();
        return read(text, file.toString());
    }

    /**
     * Reads and validates fabric JSON text.
     *
     * @param sourceName how problems name the input (usually the file name)
     */
    public static Fabric read(String text, String sourceName) throws InputException {
        Problems problems = new Problems(sourceName);
        JsonNode root = JsonInput.parse(READER, text, problems, "JSON");
        Fabric f = null;
        if (root != null) {
            f = new FabricJsonReader(problems).read(root);
        }
        problems.throwIfAny();
        return f;
    }

    /** The canonical text of a fabric: fixed field order, 2-space indentation, "\n" line ends, final newline. */
    public static String write(Fabric f) {
        try {
            return WRITER.writer(prettyPrinter()).writeValueAsString(toTree(f)) + "\n";
        } catch (JsonProcessingException e) {
            // A tree of plain nodes always serialises; this would be a Jackson bug.
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the fabric atomically: readers see the old file or the new one, never half of it. */
    public static void save(Fabric f, Path file) throws IOException {
        AtomicFiles.write(file, write(f).getBytes(StandardCharsets.UTF_8));
    }

    /** One-line form of small objects and number arrays: {"name": "eth1", "speedGbps": 400}, [1, 2]. */
    private static final ObjectWriter INLINE = WRITER.writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEntrySpacing(Separators.Spacing.AFTER)
            .withArrayValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator(""))
            .withObjectIndenter(new DefaultPrettyPrinter.NopIndenter())
            .withArrayIndenter(new DefaultPrettyPrinter.NopIndenter()));

    /**
     * Ports, links, positions and number arrays are written on one line each, so a file of
     * thousands of links stays readable and a re-cabled link is a one-line diff.
     */
    static RawValue inline(JsonNode n) {
        try {
            return new RawValue(INLINE.writeValueAsString(n));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static DefaultPrettyPrinter prettyPrinter() {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        return new DefaultPrettyPrinter(separators).withObjectIndenter(indenter).withArrayIndenter(indenter);
    }

    // ----- model -> tree -----------------------------------------------------------------------

    static ObjectNode toTree(Fabric f) {
        ObjectNode root = NODES.objectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("name", f.name());
        root.put("description", f.description());
        root.put("mtuBytes", f.mtuBytes());
        ObjectNode profiles = root.putObject("qosProfiles");
        for (QosProfile p : f.qosProfiles().values()) {
            profiles.set(p.name(), profileTree(p));
        }
        if (f.defaultQosProfile() != null) {
            root.put("defaultQosProfile", f.defaultQosProfile());
        }
        ArrayNode devices = root.putArray("devices");
        for (Device d : f.devices()) {
            devices.add(deviceTree(d));
        }
        ArrayNode links = root.putArray("links");
        for (Link l : f.links()) {
            links.addRawValue(inline(linkTree(l)));
        }
        Layout layout = f.layout();
        if (!layout.isEmpty()) {
            ObjectNode lt = root.putObject("layout");
            ObjectNode positions = lt.putObject("positions");
            for (Map.Entry<String, Layout.Point> e : layout.positions().entrySet()) {
                ObjectNode pt = NODES.objectNode();
                putNumber(pt, "x", e.getValue().x());
                putNumber(pt, "y", e.getValue().y());
                positions.putRawValue(e.getKey(), inline(pt));
            }
            ArrayNode folded = NODES.arrayNode();
            layout.foldedGroups().forEach(folded::add);
            lt.putRawValue("foldedGroups", inline(folded));
        }
        return root;
    }

    static ObjectNode profileTree(QosProfile p) {
        ObjectNode o = NODES.objectNode();
        o.put("description", p.description() == null ? "" : p.description());
        PfcConfig pfc = p.pfc() == null ? PfcConfig.off() : p.pfc();
        ObjectNode po = o.putObject("pfc");
        po.put("enabled", pfc.enabled());
        po.putRawValue("priorities", intArray(pfc.priorities()));
        po.put("xoffBytes", pfc.xoffBytes());
        po.put("xonBytes", pfc.xonBytes());
        po.put("headroomBytes", pfc.headroomBytes());
        po.put("watchdogUs", pfc.watchdogUs());
        po.put("watchdogAction", enumName(pfc.watchdogAction()));

        EcnConfig ecn = p.ecn() == null ? EcnConfig.off() : p.ecn();
        ObjectNode eo = o.putObject("ecn");
        eo.put("enabled", ecn.enabled());
        eo.put("markAt", enumName(ecn.markAt()));
        ObjectNode classes = eo.putObject("classes");
        new java.util.TreeMap<>(ecn.classes()).forEach((tc, w) -> {
            ObjectNode wo = NODES.objectNode();
            wo.put("kminBytes", w.kminBytes());
            wo.put("kmaxBytes", w.kmaxBytes());
            putNumber(wo, "pmax", w.pmax());
            classes.putRawValue(Integer.toString(tc), inline(wo));
        });

        DcqcnConfig d = p.dcqcn() == null ? DcqcnConfig.off() : p.dcqcn();
        ObjectNode dcqcn = o.putObject("dcqcn");
        dcqcn.put("enabled", d.enabled());
        putNumber(dcqcn, "cnpIntervalUs", d.cnpIntervalUs());
        putNumber(dcqcn, "alphaTimerUs", d.alphaTimerUs());
        putNumber(dcqcn, "rateIncreaseTimerUs", d.rateIncreaseTimerUs());
        dcqcn.put("byteCounterBytes", d.byteCounterBytes());
        dcqcn.put("fastRecoverySteps", d.fastRecoverySteps());
        putNumber(dcqcn, "g", d.g());
        putNumber(dcqcn, "rateAiMbps", d.rateAiMbps());
        putNumber(dcqcn, "rateHaiMbps", d.rateHaiMbps());
        putNumber(dcqcn, "initialAlpha", d.initialAlpha());
        putNumber(dcqcn, "minRateMbps", d.minRateMbps());
        putNumber(dcqcn, "minCutIntervalUs", d.minCutIntervalUs());
        putNumber(dcqcn, "maxCutFraction", d.maxCutFraction());
        if (!d.clampTargetRate() || d.clampTargetAfterTimeIncrease()) {
            // Written only when they differ from the paper's rule, the one a file without them keeps.
            dcqcn.put("clampTargetRate", d.clampTargetRate());
            dcqcn.put("clampTargetRateAfterTimeIncrease", d.clampTargetAfterTimeIncrease());
        }

        BufferConfig b = p.buffer() == null ? defaultBuffer() : p.buffer();
        ObjectNode bo = o.putObject("buffer");
        bo.put("poolBytes", b.poolBytes());
        bo.put("mode", enumName(b.mode()));
        bo.put("staticLimitBytes", b.staticLimitBytes());
        putNumber(bo, "alpha", b.alpha());
        bo.put("reservedPerQueueBytes", b.reservedPerQueueBytes());

        SchedulerConfig s = p.scheduler() == null ? SchedulerConfig.defaults() : p.scheduler();
        ObjectNode so = o.putObject("scheduler");
        so.putRawValue("strictPriorityClasses", intArray(s.strictPriorityClasses()));
        ArrayNode weights = NODES.arrayNode();
        s.dwrrWeights().forEach(weights::add);
        so.putRawValue("dwrrWeights", inline(weights));
        return o;
    }

    private static ObjectNode deviceTree(Device d) {
        ObjectNode o = NODES.objectNode();
        o.put("id", d.id());
        o.put("role", d.role().jsonName());
        if (d.model() != null) {
            o.put("model", d.model());
        }
        if (d.unit() != null) {
            o.put("unit", d.unit());
        }
        if (d.rail() != null) {
            o.put("rail", d.rail());
        }
        if (d.pod() != null) {
            o.put("pod", d.pod());
        }
        if (d.gpusOverride() != null) {
            o.put("gpus", d.gpusOverride());
        }
        if (d.scaleUp() != null) {
            o.putRawValue("scaleUp", inline(scaleUpTree(d.scaleUp())));
        }
        if (d.qosProfile() != null) {
            o.put("qosProfile", d.qosProfile());
        }
        if (!d.labels().isEmpty()) {
            ObjectNode labels = o.putObject("labels");
            new java.util.TreeMap<>(d.labels()).forEach(labels::put);
        }
        ArrayNode ports = o.putArray("ports");
        for (Port p : d.ports()) {
            ObjectNode po = NODES.objectNode();
            po.put("name", p.name());
            po.put("speedGbps", p.speedGbps());
            if (p.nic() != null) {
                po.put("nic", p.nic());
            }
            if (p.qosProfile() != null) {
                po.put("qosProfile", p.qosProfile());
            }
            ports.addRawValue(inline(po));
        }
        return o;
    }

    /**
     * A scale-up domain on one line: the GPU model, its technology when it is not the one the GPU's
     * name implies, and both figures always (a reader of the file sees what the simulation uses).
     */
    static ObjectNode scaleUpTree(ScaleUp s) {
        ObjectNode o = NODES.objectNode();
        o.put("gpu", s.gpu());
        if (!s.technology().equals(FabricJsonReader.defaultTechnology(s.gpu()))) {
            o.put("technology", s.technology());
        }
        putNumber(o, "bandwidthGBps", s.bandwidthGBps());
        o.put("latencyNs", s.latencyNs());
        return o;
    }

    /** The scale-up domain as the one-line JSON text the fabric file holds, e.g. for a containerlab label. */
    public static String scaleUpText(ScaleUp s) {
        return inline(scaleUpTree(s)).rawValue().toString();
    }

    private static ObjectNode linkTree(Link l) {
        ObjectNode o = NODES.objectNode();
        // The conventional id is implied by the ends; writing it would only add noise to diffs.
        if (!l.id().equals(Link.idFor(l.a(), l.b()))) {
            o.put("id", l.id());
        }
        o.put("a", l.a().ref());
        o.put("b", l.b().ref());
        o.put("speedGbps", l.speedGbps());
        putNumber(o, "cableLengthM", l.cableLengthM());
        o.put("cableType", l.cableType().jsonName());
        o.put("state", l.state().jsonName());
        return o;
    }

    /** Whole numbers are written without ".0" (10, not 10.0): easier to read and type. */
    private static void putNumber(ObjectNode o, String field, double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15 && !(v == 0 && 1 / v < 0)) {
            o.put(field, (long) v);
        } else {
            o.put(field, v);
        }
    }

    private static RawValue intArray(Set<Integer> values) {
        ArrayNode a = NODES.arrayNode();
        new java.util.TreeSet<>(values).forEach(a::add);
        return inline(a);
    }

    /** Enum constants are written in lower case ("dynamic", "drop", "dequeue"). */
    static String enumName(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    // ----- defaults of sections and fields left out -------------------------------------------

    /** PFC fields left out of a present "pfc" section take these values (lossless priority 3). */
    static PfcConfig defaultPfc() {
        return QosProfile.roceLossless("default", 400).pfc();
    }

    /** A profile without a "buffer" section: 64 MiB shared, dynamic thresholds with alpha 1. */
    static BufferConfig defaultBuffer() {
        return new BufferConfig(64L * 1024 * 1024, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
    }
}
