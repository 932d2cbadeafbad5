package io.fabriclab.counters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

import io.fabriclab.io.InputException;

/**
 * One counters file (or hw_counters directory) as the user names it: {@code [DEVICE[:IFACE]=]PATH}.
 * DEVICE and IFACE say whose counters a file holds when its format does not (SONiC tables, portstat,
 * ethtool, hw_counters); without them the device is the file name up to its first dot
 * ({@code leaf1.pfc-counters.txt} is leaf1's). A text file is at most {@link #MAX_BYTES}, UTF-8.
 * <p>
 * The sample's time: the data's own (Prometheus timestamps, portstat's {@code "time"}), else a first
 * line {@code # time: 2026-11-28T10:00:00Z} (FabricLab's convention for formats that carry none:
 * {@code { echo "# time: $(date -u +%FT%TZ)"; show pfc counters; } > leaf1.pfc.txt}), else none
 * (the caller then uses the interval it was given, or the file's modification time).
 */
public record CountersFile(Path path, String device, String iface) {
    /** Counters files larger than this are refused before they are read (a switch's full output is well under 1 MB). */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    /** {@code [DEVICE[:IFACE]=]PATH}. */
    public static CountersFile of(String spec) {
        int eq = spec.indexOf('=');
        if (eq > 0 && spec.substring(0, eq).chars().noneMatch(c -> c == '/' || c == '\\')) {
            String who = spec.substring(0, eq);
            int colon = who.indexOf(':');
            return new CountersFile(Path.of(spec.substring(eq + 1)), colon < 0 ? who : who.substring(0, colon),
                    colon < 0 ? null : who.substring(colon + 1));
        }
        return new CountersFile(Path.of(spec), null, null);
    }

    /** The device the file is about: the one given, else the file name up to its first dot. */
    public String deviceHint() {
        if (device != null && !device.isBlank()) {
            return device;
        }
        String name = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        int dot = name.indexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /** As the user named it (for messages). */
    public String source() {
        return path.toString();
    }

    /** Reads and parses the file (format by content); InputException names the file and the line. */
    public CounterSample read() throws InputException {
        String source = source();
        try {
            if (Files.isDirectory(path)) {
                return HwCounters.read(path, source, deviceHint());
            }
            String text = text(path, source);
            Instant stated = statedTime(text, source);
            CountersFormat f = CountersFormat.detect(text);
            if (f == null) {
                throw LineProblems.one(source, 0, null, "the file is empty", CountersFormat.allowed());
            }
            CounterSample s = parse(f, text, source, deviceHint(), iface == null ? "" : iface);
            return s.time() == null && stated != null ? s.at(stated) : s;
        } catch (NoSuchFileException e) {
            throw LineProblems.one(source, 0, null, "no such file", "a counters file or a hw_counters directory");
        } catch (IOException e) {
            throw LineProblems.one(source, 0, null, "cannot read: " + e.getMessage(), null);
        }
    }

    /** Parses text already read (a file or a scrape) as format {@code f}. */
    public static CounterSample parse(CountersFormat f, String text, String source, String device, String iface)
            throws InputException {
        return switch (f) {
            case PROMETHEUS -> PrometheusText.parse(text, source, device);
            case SONIC_SHOW -> SonicShow.parse(text, source, device);
            case PORTSTAT_JSON -> PortstatJson.parse(text, source, device);
            case ETHTOOL -> EthtoolStats.parse(text, source, device, iface);
            case HW_COUNTERS -> HwCounters.parse(text, source, device);
        };
    }

    /** A counters text file: size-checked before it is read, strict UTF-8 (a byte-order mark dropped). */
    static String text(Path file, String source) throws InputException, IOException {
        long size = Files.size(file);
        if (size > MAX_BYTES) {
            throw LineProblems.one(source, 0, null, String.format(Locale.ROOT,
                    "the file is %.1f MB; counters files are read up to %d MB (one switch's or NIC's counters are well under 1 MB)",
                    size / 1e6, MAX_BYTES / (1024 * 1024)), "a counters file of at most " + MAX_BYTES / (1024 * 1024) + " MB");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw LineProblems.one(source, 0, null, "the file grew past " + MAX_BYTES / (1024 * 1024) + " MB while it was read", null);
        }
        return utf8(bytes, source);
    }

    static String utf8(byte[] bytes, String source) throws InputException {
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            return s.startsWith("\uFEFF") ? s.substring(1) : s;
        } catch (CharacterCodingException e) {
            throw LineProblems.one(source, 0, null, "not UTF-8 text", "a text file (UTF-8), or a hw_counters directory");
        }
    }

    /** The {@code # time:} line among the first lines, or null. */
    static Instant statedTime(String text, String source) throws InputException {
        String[] lines = text.split("\n", 6);
        for (int i = 0; i < Math.min(5, lines.length); i++) {
            String t = lines[i].strip();
            if (t.toLowerCase(Locale.ROOT).startsWith("# time:")) {
                String v = t.substring("# time:".length()).strip();
                try {
                    return Instant.parse(v);
                } catch (DateTimeParseException e) {
                    throw LineProblems.one(source, i + 1, v, "the sample's time is not an ISO-8601 instant",
                            "# time: 2026-11-28T10:00:00Z");
                }
            }
        }
        return null;
    }
}
