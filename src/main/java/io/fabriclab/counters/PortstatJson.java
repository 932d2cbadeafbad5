package io.fabriclab.counters;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabriclab.io.InputException;
import io.fabriclab.io.JsonInput;

/**
 * Reads {@code portstat -j} (sonic-utilities' portstat, behind {@code show interfaces counters}):
 * a JSON object keyed by interface, each an object of strings: {@code STATE}, {@code RX_OK},
 * {@code RX_BPS}, {@code RX_UTIL}, {@code RX_ERR}, {@code RX_DRP}, {@code RX_OVR} and the same for
 * TX. Packet counts carry thousands commas; N/A is skipped. TX_OK becomes packets transmitted,
 * RX_DRP and TX_DRP drops; the rates and utilisations portstat computes itself, the states and the
 * error and overrun counts are not used. A top-level {@code "time"} (ISO-8601), where a collector
 * adds one, is the sample's time. Read by the project's strict JSON reader (io.JsonInput).
 */
public final class PortstatJson {
    private static final Set<String> NOT_USED = Set.of("STATE", "RX_BPS", "RX_UTIL", "TX_BPS", "TX_UTIL", "RX_ERR",
            "TX_ERR", "RX_OVR", "TX_OVR", "RX_OK", "IFACE");

    private PortstatJson() {
    }

    public static CounterSample parse(String text, String source, String device) throws InputException {
        JsonNode root = JsonInput.parseTree(text, source, "a portstat -j file");
        LineProblems problems = new LineProblems(source);
        if (!root.isObject()) {
            throw LineProblems.one(source, 0, JsonInput.kind(root), "portstat -j output must be a JSON object keyed by interface",
                    "{\"Ethernet0\": {\"RX_OK\": \"1,234\", ...}, ...}");
        }
        List<Reading> readings = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        Instant time = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String iface = e.getKey();
            if (iface.equals("time") && e.getValue().isTextual()) {
                try {
                    time = Instant.parse(e.getValue().asText());
                } catch (DateTimeParseException ex) {
                    problems.add(0, e.getValue().asText(), "$.time is not an ISO-8601 instant", "e.g. 2026-11-28T10:00:00Z");
                }
                continue;
            }
            if (!e.getValue().isObject()) {
                problems.add(0, JsonInput.kind(e.getValue()), "$." + iface + " must be an object of counters", null);
                continue;
            }
            for (Iterator<Map.Entry<String, JsonNode>> c = e.getValue().fields(); c.hasNext(); ) {
                Map.Entry<String, JsonNode> col = c.next();
                String name = col.getKey().toUpperCase(Locale.ROOT);
                CounterKind k = switch (name) {
                    case "TX_OK" -> CounterKind.TX_PACKETS;
                    case "RX_DRP", "TX_DRP" -> CounterKind.DROPS;
                    default -> null;
                };
                if (k == null) {
                    if (!NOT_USED.contains(name)) {
                        unknown.add(col.getKey());
                    }
                    continue;
                }
                String raw = col.getValue().isNumber() ? col.getValue().asText() : col.getValue().asText("");
                if (raw.equalsIgnoreCase("N/A")) {
                    continue;
                }
                Double v = LineProblems.number(raw);
                if (v == null || v < 0) {
                    problems.add(0, raw, "$." + iface + "." + col.getKey() + " is not a counter value",
                            "a whole number as a string (thousands commas allowed) or N/A");
                    continue;
                }
                readings.add(new Reading(device, iface, -1, k, v, 0));
            }
        }
        problems.throwIfAny();
        return new CounterSample(source, CountersFormat.PORTSTAT_JSON, time, readings, new ArrayList<>(unknown));
    }
}
