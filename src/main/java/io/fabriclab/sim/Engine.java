package io.fabriclab.sim;

import java.util.Arrays;
import java.util.Locale;

/**
 * Which simulator runs a scenario (docs/model.md, Two engines).
 * <ul>
 * <li>{@link #PACKET}: every packet through every queue, with PFC, ECN, DCQCN, InfiniBand credits
 * and Ultra Ethernet's trimming ({@link Simulator}).</li>
 * <li>{@link #FLOW}: flows share links max-min fair, recomputed at every arrival, completion and
 * failure; no queues, so none of those mechanisms ({@link FlowEngine}). Memory and time grow with
 * flows and links, not with packets: the whole cluster in seconds.</li>
 * </ul>
 */
public enum Engine {
    PACKET("packet"), FLOW("flow");

    private final String jsonName;

    Engine(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    /** The engine named {@code name} ("packet" or "flow", any case), or an error naming what is allowed. */
    public static Engine parse(String name) {
        for (Engine e : values()) {
            if (e.jsonName.equals(name.toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        throw new IllegalArgumentException("engine '" + name + "' is not known; allowed: " + names());
    }

    /** "packet, flow". */
    public static String names() {
        return String.join(", ", Arrays.stream(values()).map(Engine::jsonName).toList());
    }
}
