package io.fabriclab.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One lint finding about a fabric.
 *
 * @param code    stable machine-readable rule name, e.g. "PFC_TOO_MANY_PRIORITIES"
 * @param subject what it is about: a device id, a port ("device:port"), a link id, a QoS profile or a rail
 * @param message what is wrong, with the numbers
 * @param fix     the change that resolves it, in one line
 */
public record Finding(Severity severity, String code, String subject, String message, String fix) {

    /** ERROR: wrong or unsafe as designed; WARNING: likely a mistake; INFO: worth knowing. */
    public enum Severity { ERROR, WARNING, INFO }

    @Override
    public String toString() {
        return severity + " " + code + " [" + subject + "] " + message + " -- fix: " + fix;
    }

    /**
     * Findings that say the same thing (severity, code, message and fix) about different subjects,
     * e.g. 32 single-homed servers on one leaf: shown once with a count.
     */
    public record Group(Severity severity, String code, List<String> subjects, String message, String fix) {
        public int count() {
            return subjects.size();
        }

        /** The subjects for one line: all of them up to {@code max}, else the first ones and "and N more". */
        public String subjectsText(int max) {
            if (subjects.size() <= max) {
                return String.join(", ", subjects);
            }
            return String.join(", ", subjects.subList(0, max)) + " and " + (subjects.size() - max) + " more";
        }
    }

    /** Identical findings grouped, in the order of their first occurrence (so worst first stays worst first). */
    public static List<Group> group(List<Finding> findings) {
        record Key(Severity severity, String code, String message, String fix) {
        }
        Map<Key, List<String>> byKey = new LinkedHashMap<>();
        for (Finding f : findings) {
            byKey.computeIfAbsent(new Key(f.severity(), f.code(), f.message(), f.fix()), k -> new ArrayList<>())
                    .add(f.subject());
        }
        List<Group> out = new ArrayList<>();
        byKey.forEach((k, subjects) -> out.add(new Group(k.severity(), k.code(), List.copyOf(subjects), k.message(), k.fix())));
        return out;
    }
}
