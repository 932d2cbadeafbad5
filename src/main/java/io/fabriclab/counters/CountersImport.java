package io.fabriclab.counters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.io.InputException;
import io.fabriclab.io.InputProblem;
import io.fabriclab.model.Fabric;

/**
 * Counters files read and rated for a fabric: the one service the command line, the report and the
 * editor call. Every file is read before anything is judged; the problems of all of them are
 * reported together, and nothing is half-applied (the caller gets a {@link Measured} or an
 * exception, never a part).
 */
public final class CountersImport {

    private CountersImport() {
    }

    /**
     * Reads {@code files} (each {@code [DEVICE[:IFACE]=]PATH}), maps them with {@code map} (null: by
     * name only) and rates them. {@code intervalS}: seconds between consecutive samples that carry no
     * time of their own (null: the files' modification times).
     */
    public static Measured read(Fabric fabric, Path map, List<String> files, Double intervalS) throws InputException {
        return read(fabric, map, files, intervalS, List.of());
    }

    /** As {@link #read(Fabric, Path, List, Double)}, with samples already taken (scrapes) added after the files'. */
    public static Measured read(Fabric fabric, Path map, List<String> files, Double intervalS, List<CounterSample> scraped)
            throws InputException {
        List<InputProblem> problems = new ArrayList<>();
        PortMap pm = PortMap.NONE;
        if (map != null) {
            try {
                pm = PortMap.read(map, fabric);
            } catch (InputException e) {
                problems.addAll(e.problems());
            }
        }
        List<CounterSample> samples = new ArrayList<>();
        Map<CounterSample, Instant> mtimes = new IdentityHashMap<>();
        for (String spec : files) {
            CountersFile f = CountersFile.of(spec);
            try {
                CounterSample s = f.read();
                samples.add(s);
                try {
                    mtimes.put(s, Files.getLastModifiedTime(f.path()).toInstant());
                } catch (IOException e) {
                    // no modification time: the sample has only its own
                }
            } catch (InputException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        samples.addAll(scraped);
        return Measured.of(fabric, pm, samples, intervalS, mtimes);
    }
}
