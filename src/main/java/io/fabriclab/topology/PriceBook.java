package io.fabriclab.topology;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

import io.fabriclab.model.CableType;

/**
 * Unit prices of network hardware by item key, in one currency. Key scheme (docs/pricebook.md):
 * <ul>
 * <li>{@code switch:<ports>}: a switch by its port configuration ({@link SwitchSku}), e.g.
 *     {@code switch:64x400G}, {@code switch:2x400G+8x100G}</li>
 * <li>{@code nic:<speed>}: one NIC, e.g. {@code nic:400G}</li>
 * <li>{@code transceiver:<speed>:<mmf|smf>}: one optical module; an MMF or SMF link needs two</li>
 * <li>{@code cable:<dac|aoc>:<speed>}: one direct-attach copper or active optical cable, any
 *     length; {@code cable:<dac|aoc>:<speed>:<length>m} prices one length class and wins when
 *     present, e.g. {@code cable:aoc:400G:30m}</li>
 * <li>{@code fiber:<mmf|smf>:per-m}: patch fibre of an optical link, per metre</li>
 * </ul>
 * Speeds are written as Gb/s with a G ({@code 400G}); lengths in metres with an m. InfiniBand parts
 * have their own keys ({@code ib-switch:}, {@code hca:}, {@code ib-transceiver:}, {@code ib-cable:});
 * Ultra Ethernet parts that differ from Ethernet ones {@code uec-switch:} and {@code uec-nic:}
 * ({@link #candidates}).
 *
 * @param currency    ISO 4217 code, e.g. USD
 * @param description what the prices are (source, date, "illustrative")
 * @param prices      unit price by key, never negative
 */
public record PriceBook(String currency, String description, Map<String, BigDecimal> prices) {

    private static final String SPEED = "[0-9]+G";
    private static final Pattern KEY = Pattern.compile(
            "(ib-|uec-)?switch:[0-9]+x" + SPEED + "(\\+[0-9]+x" + SPEED + ")*"
                    + "|(nic|hca|uec-nic):" + SPEED
                    + "|(ib-)?transceiver:" + SPEED + ":(mmf|smf)"
                    + "|(ib-)?cable:(dac|aoc):" + SPEED + "(:[0-9]+(\\.[0-9]+)?m)?"
                    + "|fiber:(mmf|smf):per-m");

    /** The forms a key may take, for error messages. */
    public static final String KEY_FORMS = "[ib-|uec-]switch:<N>x<S>G[+<N>x<S>G...], nic:<S>G, hca:<S>G, uec-nic:<S>G, "
            + "[ib-]transceiver:<S>G:<mmf|smf>, [ib-]cable:<dac|aoc>:<S>G[:<L>m], fiber:<mmf|smf>:per-m";

    public PriceBook {
        Objects.requireNonNull(currency, "currency");
        description = description == null ? "" : description;
        Map<String, BigDecimal> copy = new TreeMap<>();
        prices.forEach((k, v) -> {
            if (!isValidKey(k)) {
                throw new IllegalArgumentException("price key '" + k + "' is not one of " + KEY_FORMS);
            }
            if (v == null || v.signum() < 0) {
                throw new IllegalArgumentException("price of " + k + " must be a number >= 0, was " + v);
            }
            copy.put(k, normalise(v));
        });
        prices = Collections.unmodifiableMap(copy);
    }

    /** 3.50 and 3.5 are the same price; 48000 stays 48000 rather than 4.8E+4. */
    private static BigDecimal normalise(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }

    public static boolean isValidKey(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    public Optional<BigDecimal> price(String key) {
        return Optional.ofNullable(prices.get(key));
    }

    /**
     * The keys that price a part under a transport, most specific first. RoCEv2 uses the Ethernet
     * keys; InfiniBand its own ({@code ib-switch:}, {@code hca:}, {@code ib-cable:},
     * {@code ib-transceiver:}), never an Ethernet price; Ultra Ethernet its own
     * ({@code uec-switch:}, {@code uec-nic:}) where the book has them, else the Ethernet part's.
     */
    public static java.util.List<String> candidates(String ethernetKey, io.fabriclab.model.Transport transport) {
        String kind = ethernetKey.substring(0, ethernetKey.indexOf(':'));
        String rest = ethernetKey.substring(kind.length());
        return switch (transport) {
            case ROCEV2 -> java.util.List.of(ethernetKey);
            case INFINIBAND -> switch (kind) {
                case "nic" -> java.util.List.of("hca" + rest);
                case "switch", "cable", "transceiver" -> java.util.List.of("ib-" + ethernetKey);
                default -> java.util.List.of(ethernetKey);
            };
            case ULTRA_ETHERNET -> switch (kind) {
                case "nic", "switch" -> java.util.List.of("uec-" + ethernetKey, ethernetKey);
                default -> java.util.List.of(ethernetKey);
            };
        };
    }

    public static String switchKey(String sku) {
        return "switch:" + sku;
    }

    public static String nicKey(int speedGbps) {
        return "nic:" + speedGbps + "G";
    }

    public static String transceiverKey(int speedGbps, CableType medium) {
        return "transceiver:" + speedGbps + "G:" + medium.jsonName();
    }

    /** {@code cable:dac:400G}; for DAC and AOC only. */
    public static String cableKey(CableType medium, int speedGbps) {
        return "cable:" + medium.jsonName() + ":" + speedGbps + "G";
    }

    /** {@code cable:aoc:400G:30m}: the length-class form of {@link #cableKey}. */
    public static String cableKey(CableType medium, int speedGbps, double lengthClassM) {
        return cableKey(medium, speedGbps) + ":" + formatMetres(lengthClassM) + "m";
    }

    public static String fiberKey(CableType medium) {
        return "fiber:" + medium.jsonName() + ":per-m";
    }

    /** 3 gives "3", 2.5 gives "2.5". */
    public static String formatMetres(double m) {
        return m == Math.rint(m) ? Long.toString((long) m) : new BigDecimal(Double.toString(m)).stripTrailingZeros()
                .toPlainString().toLowerCase(Locale.ROOT);
    }
}
