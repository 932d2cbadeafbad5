package io.fabriclab.topology.describe;

/**
 * A value the description did not give, filled in.
 *
 * @param slot  what was filled in
 * @param value the value, as text
 * @param why   where it comes from
 */
public record Default(Slot slot, String value, String why) {
}
