package io.fabriclab.diagram;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.fabriclab.model.DeviceRole;

/**
 * The visual language of a fabric drawing, shared by the editor, the live view and the report:
 * colours per role, one colour per rail index, link width and colour by speed (and later by
 * utilisation), selection, sizes of device boxes in world units and when servers fold.
 */
public final class DiagramStyle {
    private final Map<DeviceRole, Rgba> roleFill = new EnumMap<>(DeviceRole.class);

    /**
     * Rail colours: Tableau 10, chosen for telling many series apart (also under common colour
     * blindness); rail k uses entry k mod 10, so rail 3 has the same colour everywhere.
     */
    private static final List<Rgba> RAILS = List.of(Rgba.hex("#4e79a7"), Rgba.hex("#f28e2b"), Rgba.hex("#e15759"),
            Rgba.hex("#76b7b2"), Rgba.hex("#59a14f"), Rgba.hex("#edc948"), Rgba.hex("#b07aa1"), Rgba.hex("#ff9da7"),
            Rgba.hex("#9c755f"), Rgba.hex("#bab0ac"));

    public static final Rgba BACKGROUND = Rgba.hex("#f6f7f9");
    public static final Rgba GRID_LINE = Rgba.hex("#e6e9ee");
    public static final Rgba TEXT = Rgba.hex("#1f2933");
    public static final Rgba TEXT_MUTED = Rgba.hex("#52606d");
    public static final Rgba SELECTION = Rgba.hex("#ff7f0e");
    public static final Rgba HOVER = Rgba.hex("#ffbb78");
    public static final Rgba LINK_DOWN = Rgba.hex("#d62728");
    public static final Rgba GROUP_FILL = Rgba.hex("#dfe7f1a0");
    public static final Rgba GROUP_STROKE = Rgba.hex("#b6c3d3");
    public static final Rgba LEGEND_FILL = Rgba.hex("#ffffffe6");
    public static final Rgba LEGEND_STROKE = Rgba.hex("#c3cad3");
    public static final Rgba RUBBER_BAND = Rgba.hex("#1f77b4");
    /** Links and devices on the ECMP paths between two selected NICs, or on a deadlock cycle. */
    public static final Rgba HIGHLIGHT = Rgba.hex("#17becf");

    // Live congestion marks (live view, replays and the report share them; docs/user-guide.md).
    /** A direction paused by PFC: violet, outside the green-amber-red load scale. */
    public static final Rgba PFC_PAUSE = Rgba.hex("#7b2cbf");
    /** An ECN mark spark. */
    public static final Rgba ECN_SPARK = Rgba.hex("#ffd60a");
    public static final Rgba ECN_SPARK_EDGE = Rgba.hex("#b45309");
    /** A drop flash. */
    public static final Rgba DROP = Rgba.hex("#e00000");
    /** The halo of a direction on a PFC deadlock cycle. */
    public static final Rgba DEADLOCK = Rgba.hex("#111111");
    /** The halo of the selected flow's path (green: apart from the blue load scale; docs/editor.md). */
    public static final Rgba FLOW_PATH = Rgba.hex("#00c853");
    /** The halo of the selected collective's member flows (magenta: seen on the darkest load blue). */
    public static final Rgba COLLECTIVE_PATH = Rgba.hex("#e7298a");
    /** A CNP travelling back to its sender: a small white square with a dark edge. */
    public static final Rgba CNP_FILL = Rgba.hex("#ffffff");
    public static final Rgba CNP_EDGE = Rgba.hex("#0b3d91");
    /**
     * A queue the PFC watchdog declared stormed: the only orange of the live view (the load scale is
     * blue), apart from the violet of a pause in force.
     */
    public static final Rgba PFC_STORM = Rgba.hex("#ff6d00");

    /** Size of device boxes in world units. */
    public static final double SWITCH_WIDTH = 100;
    public static final double SWITCH_HEIGHT = 36;
    public static final double SERVER_WIDTH = 48;
    public static final double SERVER_HEIGHT = 28;
    public static final double CORNER_ARC = 8;
    /** Grid pitch for snapping moved devices, in world units. */
    public static final double GRID = 10;
    /** Servers fold into racks / units when a server box would be narrower than this on screen. */
    public static final double FOLD_BELOW_PX = 14;
    /** A unit's leaf and rail switches fold with its servers when a switch box would be narrower than this. */
    public static final double FOLD_SWITCHES_BELOW_PX = 12;
    /** Below this scale parallel links are drawn as one bundle. */
    public static final double BUNDLE_BELOW_SCALE = 0.35;

    /** Colours of the surface the fabric is drawn on; light is the default, dark for View > Dark Theme. */
    public enum Theme { LIGHT, DARK }

    private final Theme theme;
    private final Rgba background;
    private final Rgba gridLine;
    private final Rgba text;
    private final Rgba textMuted;
    private final Rgba groupFill;
    private final Rgba groupStroke;
    private final Rgba legendFill;
    private final Rgba legendStroke;

    public DiagramStyle() {
        this(Theme.LIGHT);
    }

    public DiagramStyle(Theme theme) {
        this.theme = theme;
        boolean dark = theme == Theme.DARK;
        background = dark ? Rgba.hex("#1e2227") : BACKGROUND;
        gridLine = dark ? Rgba.hex("#2c323a") : GRID_LINE;
        text = dark ? Rgba.hex("#e4e7eb") : TEXT;
        textMuted = dark ? Rgba.hex("#a7b0bb") : TEXT_MUTED;
        groupFill = dark ? Rgba.hex("#2a3340a0") : GROUP_FILL;
        groupStroke = dark ? Rgba.hex("#4a5668") : GROUP_STROKE;
        legendFill = dark ? Rgba.hex("#272c33e6") : LEGEND_FILL;
        legendStroke = dark ? Rgba.hex("#4a5668") : LEGEND_STROKE;
        roleFill.put(DeviceRole.CORE, Rgba.hex("#5b3f8c"));
        roleFill.put(DeviceRole.SPINE, Rgba.hex("#1d5b8f"));
        roleFill.put(DeviceRole.LEAF, Rgba.hex("#23867b"));
        roleFill.put(DeviceRole.RAIL, Rgba.hex("#3f7f3a"));
        roleFill.put(DeviceRole.SERVER, Rgba.hex("#59636e"));
    }

    public Theme theme() {
        return theme;
    }

    public Rgba background() {
        return background;
    }

    public Rgba gridLine() {
        return gridLine;
    }

    /** Text drawn on the background (legend, unit names). */
    public Rgba text() {
        return text;
    }

    /** Secondary text on the background (port and speed labels). */
    public Rgba textMuted() {
        return textMuted;
    }

    public Rgba groupFill() {
        return groupFill;
    }

    public Rgba groupStroke() {
        return groupStroke;
    }

    public Rgba legendFill() {
        return legendFill;
    }

    public Rgba legendStroke() {
        return legendStroke;
    }

    public Rgba fill(DeviceRole role) {
        return roleFill.get(role);
    }

    public Rgba outline(DeviceRole role) {
        return roleFill.get(role).darker(0.35);
    }

    /** Text colour that reads on the given fill. */
    public Rgba textOn(Rgba fill) {
        return fill.luma() < 0.6 ? new Rgba(255, 255, 255, 255) : TEXT;
    }

    public double width(DeviceRole role) {
        return role == DeviceRole.SERVER ? SERVER_WIDTH : SWITCH_WIDTH;
    }

    public double height(DeviceRole role) {
        return role == DeviceRole.SERVER ? SERVER_HEIGHT : SWITCH_HEIGHT;
    }

    /** The colour of rail k (k >= 0), the same in every view. */
    public Rgba railColour(int rail) {
        return RAILS.get(Math.floorMod(rail, RAILS.size()));
    }

    /** How many distinct rail colours exist before they repeat. */
    public int railColourCount() {
        return RAILS.size();
    }

    /**
     * Link colour by speed: slower links lighter, faster darker, so the uplinks of a Clos stand
     * out from host links without a legend lookup.
     */
    public Rgba linkColour(int speedGbps) {
        // On the dark background the same hues, lifted towards white so thin lines stay visible.
        return (theme == Theme.DARK ? DARK_LINK_COLOURS : LIGHT_LINK_COLOURS)[speedClass(speedGbps)];
    }

    /** Link colours by {@link #speedClass}, parsed once: a frame asks for one per link it bundles. */
    private static final Rgba[] LIGHT_LINK_COLOURS = {Rgba.hex("#a8b3bf"), Rgba.hex("#7f8ea0"), Rgba.hex("#5b7896"),
            Rgba.hex("#2f5d8a"), Rgba.hex("#4a3a8c"), Rgba.hex("#2d1e5a")};
    private static final Rgba[] DARK_LINK_COLOURS = new Rgba[LIGHT_LINK_COLOURS.length];

    static {
        for (int i = 0; i < LIGHT_LINK_COLOURS.length; i++) {
            DARK_LINK_COLOURS[i] = LIGHT_LINK_COLOURS[i].mix(Rgba.hex("#ffffff"), 0.45);
        }
    }

    /** 0 below 100G, then 100G, 200G, 400G, 800G, 1.6T and faster. */
    private static int speedClass(int speedGbps) {
        return speedGbps >= 1600 ? 5 : speedGbps >= 800 ? 4 : speedGbps >= 400 ? 3 : speedGbps >= 200 ? 2
                : speedGbps >= 100 ? 1 : 0;
    }

    /** Link width on screen in pixels: 1 px at 100G plus 0.6 px per doubling (400G: 2.2 px). */
    public double linkWidthPx(int speedGbps) {
        double doublings = Math.log(Math.max(1, speedGbps) / 100.0) / Math.log(2);
        return Math.max(0.8, Math.min(4.0, 1.0 + 0.6 * doublings));
    }

    /** Width of a bundle of {@code count} links: the single width plus 0.8 px per doubling of the count. */
    public double bundleWidthPx(int speedGbps, int count) {
        return Math.min(8.0, linkWidthPx(speedGbps) + 0.8 * Math.log(Math.max(1, count)) / Math.log(2));
    }

    /** The load scale's stops at 0, 50 and 100 %: ColorBrewer "Blues" classes 3, 6 and 9 (Brewer 2002). */
    public static final Rgba LOAD_LOW = Rgba.hex("#c6dbef");
    public static final Rgba LOAD_MID = Rgba.hex("#4292c6");
    public static final Rgba LOAD_HIGH = Rgba.hex("#08306b");

    /**
     * Utilisation (or queue fill, as a fraction of XOFF or Kmax) 0..1 on one sequential blue scale,
     * light to dark (reversed on the dark theme, so more load is always more contrast with the
     * background). Red stays for alarms only (drops, failed links): a busy link is not an alarm.
     * Used by the live view, replays, the report and the editor's link load; docs/editor.md has the
     * colour language and its colour-blind check (ColourVision).
     */
    public Rgba utilisationColour(double fraction) {
        double f = Math.max(0, Math.min(1, fraction));
        if (theme == Theme.DARK) {
            f = 1 - f;
        }
        return f < 0.5 ? LOAD_LOW.mix(LOAD_MID, f * 2) : LOAD_MID.mix(LOAD_HIGH, (f - 0.5) * 2);
    }
}
