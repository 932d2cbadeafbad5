package io.fabriclab.counters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.fabriclab.io.InputException;

/**
 * Reads the RDMA device counters Linux exposes under
 * {@code /sys/class/infiniband/<device>/ports/<port>/hw_counters/<name>} (kernel
 * Documentation/ABI/stable/sysfs-class-infiniband; the mlx5 names in NVIDIA's "Understanding mlx5
 * Linux Counters"): one whole number per file. Two ways in: a copy of that directory tree (any
 * directory under which {@code .../<device>/ports/<port>/hw_counters/} files lie), or the listing
 * {@code grep -H . /sys/class/infiniband/*}{@code /ports/*}{@code /hw_counters/*} prints
 * ({@code path:value} a line). The interface is named {@code <device>/<port>} (e.g. {@code mlx5_0/1}).
 */
public final class HwCounters {
    private static final Pattern PATH = Pattern.compile(".*?([^/]+)/ports/(\\d+)/hw_counters/([^/:]+)");
    /** Most files read from one directory tree (a real port has about 40). */
    static final int MAX_FILES = 20_000;

    private HwCounters() {
    }

    /** The {@code grep -H} listing. */
    public static CounterSample parse(String text, String source, String device) throws InputException {
        LineProblems problems = new LineProblems(source);
        List<Reading> readings = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length && !problems.full(); i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int colon = t.lastIndexOf(':');
            Matcher m = colon > 0 ? PATH.matcher(t.substring(0, colon)) : null;
            Double v = colon > 0 ? LineProblems.number(t.substring(colon + 1)) : null;
            if (m == null || !m.matches() || v == null || v < 0) {
                problems.add(i + 1, t, "not a hw_counters line",
                        "/sys/class/infiniband/DEVICE/ports/N/hw_counters/NAME:VALUE (grep -H . .../hw_counters/*)");
                continue;
            }
            add(m, v, device, i + 1, readings, unknown);
        }
        problems.throwIfAny();
        return new CounterSample(source, CountersFormat.HW_COUNTERS, null, readings, new ArrayList<>(unknown));
    }

    /** A copy of the sysfs tree: every hw_counters file under {@code dir}. */
    public static CounterSample read(Path dir, String source, String device) throws InputException, IOException {
        LineProblems problems = new LineProblems(source);
        List<Reading> readings = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir, 12)) {
            files = s.filter(Files::isRegularFile).filter(p -> p.getParent() != null
                    && p.getParent().getFileName().toString().equals("hw_counters")).limit(MAX_FILES + 1L).sorted().toList();
        }
        if (files.size() > MAX_FILES) {
            throw LineProblems.one(source, 0, null, "more than " + MAX_FILES + " hw_counters files under this directory",
                    "the hw_counters directories of one host");
        }
        for (Path f : files) {
            String rel = dir.relativize(f).toString().replace('\\', '/');
            Matcher m = PATH.matcher("/" + rel);
            if (!m.matches()) {
                problems.add(0, rel, "a hw_counters file not under <device>/ports/<port>/hw_counters/", null);
                continue;
            }
            if (Files.size(f) > 64) {
                problems.add(0, rel, "a hw_counters file holds one number; this one is " + Files.size(f) + " bytes", null);
                continue;
            }
            String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8).strip();
            Double v = LineProblems.number(text);
            if (v == null || v < 0) {
                problems.add(0, rel + ": " + text, "not a whole number", "one whole number per file");
                continue;
            }
            add(m, v, device, 0, readings, unknown);
        }
        if (files.isEmpty()) {
            problems.add(0, null, "no hw_counters files under this directory",
                    "a copy of /sys/class/infiniband (…/<device>/ports/<port>/hw_counters/<name>)");
        }
        problems.throwIfAny();
        return new CounterSample(source, CountersFormat.HW_COUNTERS, null, readings, new ArrayList<>(unknown));
    }

    private static void add(Matcher m, double v, String device, int line, List<Reading> readings, Set<String> unknown) {
        String name = m.group(3);
        CounterNames.Meaning meaning = CounterNames.driver(name);
        if (meaning == null) {
            unknown.add(name);
            return;
        }
        readings.add(new Reading(device, m.group(1) + "/" + m.group(2), meaning.priority(), meaning.kind(), v, line));
    }
}
