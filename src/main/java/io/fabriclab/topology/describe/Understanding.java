package io.fabriclab.topology.describe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Transport;
import io.fabriclab.model.SwitchLatency.SwitchModel;

/**
 * What FabricLab made of a description, shown before anything is created: every term it took with
 * the words it came from, every default it applied, every word it did not use; and either the
 * blueprint of the fabric or the reason there is none (naming the words).
 *
 * @param text       the description as typed
 * @param terms      what it says, in the order of the text
 * @param defaults   what it does not say, filled in, with the source of each value
 * @param unused     words it did not use (neither a term nor glue such as "with", "the")
 * @param glue       words read as glue
 * @param blueprint  the fabric to build, or null when the description cannot become one
 * @param error      why not (quoting the words), or null
 * @param errorWords the words the error is about
 */
public record Understanding(String text, List<Term> terms, List<Default> defaults, List<Span> unused, List<Span> glue,
                            Blueprint blueprint, String error, List<Span> errorWords) {

    public Understanding {
        terms = List.copyOf(terms);
        defaults = List.copyOf(defaults);
        unused = List.copyOf(unused);
        glue = List.copyOf(glue);
        errorWords = List.copyOf(errorWords);
    }

    public boolean ok() {
        return blueprint != null;
    }

    /** Every span of the text taken by a term, in order. */
    public List<Span> understood() {
        List<Span> s = new ArrayList<>();
        terms.forEach(t -> s.addAll(t.words()));
        s.sort(Comparator.naturalOrder());
        return s;
    }

    /** 'four leaves', '2 spines' (a list of spans as the user wrote them). */
    static String quote(String text, List<Span> spans) {
        List<Span> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.naturalOrder());
        StringBuilder sb = new StringBuilder();
        Span run = null;
        for (Span s : sorted) {
            if (run != null && (s.start() <= run.end() || text.substring(run.end(), s.start()).isBlank())) {
                run = run.join(s);
                continue;
            }
            if (run != null) {
                sb.append(sb.length() > 0 ? ", " : "").append('\'').append(run.in(text)).append('\'');
            }
            run = s;
        }
        if (run != null) {
            sb.append(sb.length() > 0 ? ", " : "").append('\'').append(run.in(text)).append('\'');
        }
        return sb.toString();
    }

    /** A term's value as the table shows it: 400G, 50 m, 2:1, on, Tomahawk 5. */
    public static String show(Slot s, Object v) {
        return switch (s) {
            case NIC_SPEED, UPLINK_SPEED, SPEED -> v + "G";
            case SERVER_CABLE, SWITCH_CABLE, LEAF_SPINE_CABLE, SPINE_CORE_CABLE ->
                    io.fabriclab.topology.PriceBook.formatMetres(((Number) v).doubleValue()) + " m";
            case OVERSUBSCRIPTION -> Reader.show(v) + ":1";
            case PFC, ECN, DCQCN -> v instanceof Boolean b ? (b ? "on" : "off") : String.valueOf(v);
            default -> v instanceof SwitchModel m ? Models.words(m) : v instanceof ScaleUp g ? g.gpu()
                    : v instanceof Transport t ? t.displayName() : Reader.show(v);
        };
    }

    /** The plain-text report: understood, defaults, unused, and the error if any. */
    public String table() {
        StringBuilder sb = new StringBuilder();
        io.fabriclab.topology.TextTable took = new io.fabriclab.topology.TextTable("Understood", "Value", "From the words");
        for (Term t : terms) {
            took.row(t.slot().label(), show(t.slot(), t.value()), t.words().isEmpty() ? "" : t.quoted(text));
        }
        if (!terms.isEmpty()) {
            sb.append(took).append('\n');
        }
        if (!defaults.isEmpty()) {
            io.fabriclab.topology.TextTable d = new io.fabriclab.topology.TextTable("Default", "Value", "Why");
            for (Default x : defaults) {
                d.row(x.slot().label(), x.value().matches("-?\\d+(\\.\\d+)?") && isLength(x.slot())
                        ? x.value() + " m" : isSpeed(x.slot()) && x.value().matches("\\d+") ? x.value() + "G" : x.value(), x.why());
            }
            sb.append('\n').append(d).append('\n');
        }
        sb.append('\n').append("Not used: ").append(unused.isEmpty() ? "none" : quote(text, unused)).append('\n');
        if (error != null) {
            sb.append('\n').append("error: ").append(error).append('\n');
        }
        return sb.toString();
    }

    private static boolean isLength(Slot s) {
        return s == Slot.SERVER_CABLE || s == Slot.SWITCH_CABLE || s == Slot.LEAF_SPINE_CABLE || s == Slot.SPINE_CORE_CABLE;
    }

    private static boolean isSpeed(Slot s) {
        return s == Slot.NIC_SPEED || s == Slot.UPLINK_SPEED || s == Slot.SPEED;
    }

    /** The term for a slot, or null. */
    public Term term(Slot s) {
        return terms.stream().filter(t -> t.slot() == s).findFirst().orElse(null);
    }

    /** The default for a slot, or null. */
    public Default defaultFor(Slot s) {
        return defaults.stream().filter(d -> d.slot() == s).findFirst().orElse(null);
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
