package io.fabriclab.counters;

/**
 * One value read from a counters file or scrape: on device {@code device} (as the source names it;
 * empty when the source names none and no hint was given), interface {@code iface} (as the device
 * names it), priority or queue {@code priority} (-1: the whole port), of kind {@code kind}.
 * {@code line} is the source line it came from (0 when the source has no lines), for messages.
 */
public record Reading(String device, String iface, int priority, CounterKind kind, double value, int line) {

    /** What identifies a counter across samples. */
    public record Key(String device, String iface, int priority, CounterKind kind) {
    }

    public Key key() {
        return new Key(device, iface, priority, kind);
    }
}
