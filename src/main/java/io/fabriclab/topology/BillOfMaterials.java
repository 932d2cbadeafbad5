package io.fabriclab.topology;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.model.Port;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Transport;

/**
 * The network bill of materials of a fabric, priced from a {@link PriceBook}: switches by role and
 * port configuration, NICs by speed, and the cabling of every link (failed links included: the
 * cable is still there). A DAC or AOC link is one cable; an MMF or SMF link is two transceivers
 * plus its patch fibre, priced per metre (each cable's length rounded up to a whole metre).
 * Servers themselves are counted but not priced, and listed by model with their GPUs' scale-up
 * domain ({@link ServerModel}): the NVLink / NVSwitch is inside the server. Items the price book lacks are listed as unpriced
 * and left out of the total, never counted as zero.
 *
 * @param fabricName the fabric's name
 * @param currency   the price book's currency
 * @param servers    GPU servers in the fabric
 * @param gpus       GPUs in the fabric
 * @param cables     links grouped by tier, medium, speed and length class
 * @param lines      priced and unpriced lines: switches, NICs, cables, transceivers, fibre
 * @param total      sum of the priced lines
 * @param unpriced   the price keys that were missing, in line order
 * @param transport  the transport the fabric is built for: the same drawing is priced with that
 *                   transport's parts ({@link PriceBook#candidates})
 * @param serverModels the servers by model, GPUs per server and scale-up domain (not priced: the
 *                   NVSwitch is inside the server, no line item or cost)
 */
public record BillOfMaterials(String fabricName, String currency, int servers, int gpus, List<CableGroup> cables,
                              List<Line> lines, BigDecimal total, List<String> unpriced, Transport transport,
                              List<ServerModel> serverModels) {

    /** A bill without the servers' breakdown (as before scale-up domains). */
    public BillOfMaterials(String fabricName, String currency, int servers, int gpus, List<CableGroup> cables,
                           List<Line> lines, BigDecimal total, List<String> unpriced, Transport transport) {
        this(fabricName, currency, servers, gpus, cables, lines, total, unpriced, transport, List.of());
    }

    /** What the bill says of servers whose scale-up domain is inside them: no line item, no cost. */
    public static final String NVSWITCH_NOTE = "NVLink / NVSwitch is inside each server: no line item, no cost";

    /**
     * Servers of one model: the same model text, GPU count and scale-up domain.
     *
     * @param model        the servers' model text, or "GPU server" when they have none
     * @param count        how many servers
     * @param gpusPerServer GPUs in each
     * @param scaleUp      their GPUs' scale-up domain ({@link ScaleUp#DEFAULT} when the file declares none)
     * @param declared     false when the fabric file gives these servers no scaleUp and H100's is assumed
     */
    public record ServerModel(String model, long count, int gpusPerServer, ScaleUp scaleUp, boolean declared) {

        /** e.g. "32 x GPU server: 8 x H100, NVLink 4 / NVSwitch 450 GB/s per GPU each way". */
        public String describe() {
            return count + " x " + model + ": " + gpusPerServer + " x " + scaleUp.gpu() + ", " + scaleUp.summary()
                    + (declared ? "" : " (not in the file: " + ScaleUp.DEFAULT.gpu() + " assumed)");
        }
    }

    /** The servers of {@code fabric} grouped by model text, GPUs per server and scale-up domain, in first-seen order. */
    public static List<ServerModel> serverModels(Fabric fabric) {
        Map<List<Object>, long[]> counts = new java.util.LinkedHashMap<>();
        for (Device srv : fabric.servers()) {
            String model = srv.model() == null || srv.model().isBlank() ? "GPU server" : srv.model();
            counts.computeIfAbsent(List.of(model, srv.gpus(), srv.scaleUpOrDefault(), srv.scaleUp() != null),
                    k -> new long[1])[0]++;
        }
        List<ServerModel> out = new ArrayList<>();
        counts.forEach((k, n) -> out.add(new ServerModel((String) k.get(0), n[0], (Integer) k.get(1), (ScaleUp) k.get(2),
                (Boolean) k.get(3))));
        return List.copyOf(out);
    }

    public enum Category {
        SWITCH, NIC, CABLE, TRANSCEIVER, FIBER
    }

    /**
     * One line of the bill.
     *
     * @param unitPrice null when the price book has no price for {@code priceKey}
     * @param cost      quantity x unit price, null when unpriced
     */
    public record Line(Category category, String description, String priceKey, long quantity, String unit,
                       BigDecimal unitPrice, BigDecimal cost) {
        public boolean priced() {
            return unitPrice != null;
        }
    }

    /**
     * Links of one tier ("server-leaf", "leaf-spine", "spine-core", or whatever roles a hand-drawn
     * fabric joins, lower tier first), medium, speed and length class.
     *
     * @param lengthClassM the standard length at or above every cable of the group
     * @param totalMetres  sum of the cables' actual lengths
     */
    public record CableGroup(String tier, CableType medium, int speedGbps, double lengthClassM, long count,
                             double totalMetres) {
        public String label() {
            return tier + ", " + speedGbps + "G " + medium.jsonName().toUpperCase(java.util.Locale.ROOT) + " <= "
                    + PriceBook.formatMetres(lengthClassM) + " m";
        }
    }

    /** Standard cable lengths in metres; a cable falls into the first class at or above it. */
    private static final double[] LENGTH_CLASSES_M = {0.5, 1, 1.5, 2, 2.5, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150,
        200, 300, 500, 1000, 2000, 5000, 10000};

    public boolean complete() {
        return unpriced.isEmpty();
    }

    /** Quantity of the lines with this price key (0 if none). */
    public long quantity(String priceKey) {
        return lines.stream().filter(l -> l.priceKey().equals(priceKey)).mapToLong(Line::quantity).sum();
    }

    public Optional<Line> line(Category category, String description) {
        return lines.stream().filter(l -> l.category() == category && l.description().equals(description)).findFirst();
    }

    /** Cables of a tier, all media and lengths. */
    public long cableCount(String tier) {
        return cables.stream().filter(c -> c.tier().equals(tier)).mapToLong(CableGroup::count).sum();
    }

    /** The bill of the fabric as drawn, built for RoCEv2 (Ethernet parts). */
    public static BillOfMaterials of(Fabric fabric, PriceBook book) {
        return of(fabric, book, Transport.ROCEV2);
    }

    /** The bill of the same drawing built for {@code transport}: the same counts, that transport's parts. */
    public static BillOfMaterials of(Fabric fabric, PriceBook book, Transport transport) {
        String swLabel = transport == Transport.INFINIBAND ? "InfiniBand switch " : "";
        String nic = transport == Transport.INFINIBAND ? "HCA " : "NIC ";
        List<Line> lines = new ArrayList<>();
        Set<String> unpriced = new LinkedHashSet<>();

        // Switches by role (bottom-up) and port configuration.
        Map<DeviceRole, Map<String, Long>> switches = new TreeMap<>(Comparator.comparingInt(DeviceRole::tier)
                .thenComparing(DeviceRole::ordinal));
        for (Device sw : fabric.switches()) {
            switches.computeIfAbsent(sw.role(), r -> new TreeMap<>()).merge(SwitchSku.of(sw), 1L, Long::sum);
        }
        switches.forEach((role, bySku) -> bySku.forEach((sku, n) -> lines.add(
                line(book, unpriced, transport, Category.SWITCH, swLabel + role.jsonName() + ", " + sku, PriceBook.switchKey(sku), n,
                        "pcs"))));

        // NICs by speed: one per distinct NIC index on a server (a port without an index is its own NIC).
        Map<Integer, Long> nics = new TreeMap<>();
        int gpus = 0;
        for (Device srv : fabric.servers()) {
            gpus += srv.gpus();
            Map<Object, Integer> speedByNic = new java.util.HashMap<>();
            for (Port p : srv.ports()) {
                Object id = p.nic() != null ? (Object) p.nic() : p.name();
                speedByNic.merge(id, p.speedGbps(), Math::max);
            }
            speedByNic.values().forEach(s -> nics.merge(s, 1L, Long::sum));
        }
        nics.forEach((speed, n) -> lines.add(
                line(book, unpriced, transport, Category.NIC, nic + speed + "G", PriceBook.nicKey(speed), n, "pcs")));

        // Cabling.
        Map<GroupKey, double[]> byGroup = new TreeMap<>(GROUP_ORDER); // count, metres, whole fibre metres
        Map<String, Long> transceivers = new TreeMap<>();
        for (Link l : fabric.links()) {
            GroupKey k = new GroupKey(tierOrder(l), tier(l), l.cableType(), l.speedGbps(), lengthClass(l.cableLengthM()));
            double[] acc = byGroup.computeIfAbsent(k, x -> new double[3]);
            acc[0]++;
            acc[1] += l.cableLengthM();
            if (needsTransceivers(l.cableType())) {
                transceivers.merge(PriceBook.transceiverKey(l.speedGbps(), l.cableType()), 2L, Long::sum);
                acc[2] += Math.ceil(l.cableLengthM() - 1e-9);
            }
        }
        List<CableGroup> cableGroups = new ArrayList<>();
        byGroup.forEach((k, acc) -> {
            CableGroup group = new CableGroup(k.tier(), k.medium(), k.speedGbps(), k.lengthClassM(), (long) acc[0], acc[1]);
            cableGroups.add(group);
            if (!needsTransceivers(group.medium())) {
                String specific = PriceBook.cableKey(group.medium(), group.speedGbps(), group.lengthClassM());
                String key = PriceBook.candidates(specific, transport).stream().anyMatch(c -> book.price(c).isPresent())
                        ? specific : PriceBook.cableKey(group.medium(), group.speedGbps());
                lines.add(line(book, unpriced, transport, Category.CABLE, "cable " + group.label(), key, group.count(), "pcs"));
            } else {
                lines.add(line(book, unpriced, transport, Category.FIBER, "fibre " + group.label() + " (" + group.count()
                        + " links)", PriceBook.fiberKey(group.medium()), (long) acc[2], "m"));
            }
        });
        transceivers.forEach((key, n) -> {
            String[] parts = key.split(":");
            lines.add(line(book, unpriced, transport, Category.TRANSCEIVER,
                    "transceiver " + parts[1] + " " + parts[2].toUpperCase(java.util.Locale.ROOT), key, n, "pcs"));
        });

        BigDecimal total = lines.stream().filter(Line::priced).map(Line::cost).reduce(BigDecimal.ZERO, BigDecimal::add);
        return new BillOfMaterials(fabric.name(), book.currency(), fabric.servers().size(), gpus, List.copyOf(cableGroups),
                List.copyOf(lines), total, List.copyOf(unpriced), transport, serverModels(fabric));
    }

    /** "server-leaf", "leaf-spine", "spine-core": the two roles, lower tier first. */
    public static String tier(Link l) {
        DeviceRole x = l.a().device().role();
        DeviceRole y = l.b().device().role();
        boolean xFirst = x.tier() < y.tier() || (x.tier() == y.tier() && x.ordinal() <= y.ordinal());
        return xFirst ? x.jsonName() + "-" + y.jsonName() : y.jsonName() + "-" + x.jsonName();
    }

    /** The first standard length at or above {@code m}; beyond the longest, m rounded up to a metre. */
    public static double lengthClass(double m) {
        for (double c : LENGTH_CLASSES_M) {
            if (m <= c + 1e-9) {
                return c;
            }
        }
        return Math.ceil(m);
    }

    /** Grouping of links: tier (bottom-up), then medium, speed and length class. */
    private record GroupKey(int tierOrder, String tier, CableType medium, int speedGbps, double lengthClassM) {
    }

    private static final Comparator<GroupKey> GROUP_ORDER = Comparator.comparingInt(GroupKey::tierOrder)
            .thenComparing(GroupKey::tier).thenComparing(GroupKey::medium).thenComparingInt(GroupKey::speedGbps)
            .thenComparingDouble(GroupKey::lengthClassM);

    /** Multimode and single-mode links are two transceivers and a fibre; DAC and AOC are one cable. */
    private static boolean needsTransceivers(CableType t) {
        return t == CableType.MMF || t == CableType.SMF;
    }

    private static int tierOrder(Link l) {
        int x = l.a().device().role().tier();
        int y = l.b().device().role().tier();
        return Math.min(x, y) * 10 + Math.max(x, y);
    }

    /** A line priced by the first of the transport's keys for {@code ethernetKey} the book has. */
    private static Line line(PriceBook book, Set<String> unpriced, Transport transport, Category cat, String description,
                             String ethernetKey, long quantity, String unit) {
        List<String> keys = PriceBook.candidates(ethernetKey, transport);
        String key = keys.stream().filter(k -> book.price(k).isPresent()).findFirst().orElse(keys.get(0));
        Optional<BigDecimal> price = book.price(key);
        if (price.isEmpty()) {
            unpriced.add(key);
            return new Line(cat, description, key, quantity, unit, null, null);
        }
        BigDecimal cost = price.get().multiply(BigDecimal.valueOf(quantity)).setScale(2, RoundingMode.HALF_UP);
        return new Line(cat, description, key, quantity, unit, price.get(), cost);
    }
}
