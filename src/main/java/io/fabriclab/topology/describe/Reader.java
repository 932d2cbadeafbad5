package io.fabriclab.topology.describe;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.Transport;
import io.fabriclab.model.Units;
import io.fabriclab.topology.describe.Lexicon.C;

/**
 * The slot-filling rules: each rule looks for a pattern of word classes inside one clause (the
 * words between commas, semicolons or full stops) and fills slots with what it finds, marking the
 * tokens it took. The order of clauses and of most words within them is free.
 */
final class Reader {
    /** Words whose meaning is fixed regardless of position: nouns a number can count. */
    private static final Set<C> NOUNS = Set.of(C.LEAF, C.SPINE, C.CORE, C.SERVER, C.DGX, C.GPU, C.NIC, C.PORT, C.UNIT,
            C.SWITCH, C.UPLINK, C.LINK, C.RAIL_WORD, C.TIER, C.ARY, C.PAIR, C.GROUP);
    private static final Set<C> SWITCHES = Set.of(C.LEAF, C.SPINE, C.CORE, C.SWITCH);
    private static final Set<C> QOS = Set.of(C.PFC, C.ECN, C.DCQCN, C.LOSSLESS, C.LOSSY, C.BEST_EFFORT);
    private static final Set<C> GLUE = Set.of(C.FILLER, C.IS);

    final String text;
    final List<Token> toks;
    final int[] clause;
    final Map<Slot, Term> terms = new EnumMap<>(Slot.class);
    /** Where the description says DGX or HGX: an 8-GPU server with a NIC per GPU (NVIDIA DGX H100/B200 datasheets). */
    final List<Span> dgx = new ArrayList<>();

    private Reader(String text, List<Token> toks) {
        this.text = text;
        this.toks = toks;
        this.clause = new int[toks.size()];
        int c = 0;
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.type == Token.Type.SEP || t.is(C.SEP)) {
                c++;
                t.concept = C.SEP;
            }
            clause[i] = c;
        }
    }

    static Reader read(String text) {
        Reader r = new Reader(text, Lexer.tokens(text));
        try {
            r.rules();
        } catch (Problem p) {
            r.problem = p;
        }
        return r;
    }

    /** Set when a rule refused the description; the terms taken before it are kept for the table. */
    Problem problem;

    private void rules() {
        Reader r = this;
        r.typos();
        r.ratios();
        r.fatTreeK();
        r.names();
        r.counts();
        r.nounNumbers();
        r.speeds();
        r.lengths();
        r.qos();
        r.words();
        r.models();
        r.perOnly();
        r.leftovers();
    }

    // ----- helpers --------------------------------------------------------------------------------

    private boolean valid(int i, int sameClauseAs) {
        return i >= 0 && i < toks.size() && clause[i] == clause[sameClauseAs] && toks.get(i).concept != C.SEP;
    }

    /** The next token in the clause that is not glue, or -1. */
    private int next(int i) {
        for (int j = i + 1; valid(j, i); j++) {
            if (!isAny(j, GLUE)) {
                return j;
            }
        }
        return -1;
    }

    private int prev(int i) {
        for (int j = i - 1; valid(j, i); j--) {
            if (!isAny(j, GLUE)) {
                return j;
            }
        }
        return -1;
    }

    private Token tok(int i) {
        return i < 0 ? null : toks.get(i);
    }

    private boolean is(int i, C c) {
        return i >= 0 && i < toks.size() && toks.get(i).concept == c;
    }

    private boolean isAny(int i, Set<C> cs) {
        return i >= 0 && i < toks.size() && toks.get(i).concept != null && cs.contains(toks.get(i).concept);
    }

    private boolean clauseHas(int i, C... cs) {
        for (int j = 0; j < toks.size(); j++) {
            if (clause[j] == clause[i]) {
                for (C c : cs) {
                    if (toks.get(j).concept == c) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private List<Integer> clauseTokens(int i, C... cs) {
        List<Integer> out = new ArrayList<>();
        for (int j = 0; j < toks.size(); j++) {
            if (clause[j] == clause[i]) {
                for (C c : cs) {
                    if (toks.get(j).concept == c) {
                        out.add(j);
                    }
                }
            }
        }
        return out;
    }

    private boolean sentenceHasBefore(int i, C... cs) {
        for (int j = 0; j < i; j++) {
            for (C c : cs) {
                if (toks.get(j).concept == c) {
                    return true;
                }
            }
        }
        return false;
    }

    private List<Span> spans(int... idx) {
        List<Span> s = new ArrayList<>();
        for (int i : idx) {
            if (i >= 0) {
                s.add(toks.get(i).span);
                toks.get(i).used = true;
            }
        }
        return s;
    }

    private List<Span> spans(List<Integer> idx) {
        return spans(idx.stream().mapToInt(Integer::intValue).toArray());
    }

    private String q(int i) {
        return "'" + toks.get(i).span.in(text) + "'";
    }

    /** Sets a slot; the same slot given twice with different values is a contradiction. */
    void set(Slot s, Object v, List<Span> words) {
        Term old = terms.get(s);
        if (old != null) {
            if (!same(old.value(), v)) {
                List<Span> both = new ArrayList<>(old.words());
                both.addAll(words);
                throw new Problem(Understanding.quote(text, old.words()) + " and " + Understanding.quote(text, words)
                        + " give two different " + s.label() + " (" + show(old.value()) + " and " + show(v) + "); keep one",
                        both);
            }
            List<Span> merged = new ArrayList<>(old.words());
            merged.addAll(words);
            terms.put(s, new Term(s, v, merged));
            return;
        }
        terms.put(s, new Term(s, v, words));
    }

    static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return Math.abs(x.doubleValue() - y.doubleValue()) < 1e-9;
        }
        return a.equals(b);
    }

    static String show(Object v) {
        if (v instanceof Double d) {
            return d == Math.rint(d) ? Long.toString(d.longValue()) : Double.toString(d);
        }
        if (v instanceof Transport t) {
            return t.displayName();
        }
        if (v instanceof io.fabriclab.model.SwitchLatency.SwitchModel m) {
            return Models.words(m);
        }
        if (v instanceof io.fabriclab.model.ScaleUp s) {
            return s.gpu();
        }
        return String.valueOf(v);
    }

    private int whole(int i, String what) {
        Token t = toks.get(i);
        int v = t.intValue();
        if (v < 0) {
            throw new Problem(q(i) + ": " + what + " must be a whole number", List.of(t.span));
        }
        return v;
    }

    // ----- rules ----------------------------------------------------------------------------------

    /** An unknown word one letter away from a known one is a typo, refused with the word it resembles. */
    private void typos() {
        Set<String> known = Lexicon.knownWords();
        for (Token t : toks) {
            if (t.type != Token.Type.WORD || t.concept != null || t.text.length() < 4) {
                continue;
            }
            int allowed = t.text.length() >= 8 ? 2 : 1;
            if (known.contains(t.text)) {
                continue; // a word of a phrase, alone: shown as not used
            }
            for (String k : known) {
                if (k.charAt(0) == t.text.charAt(0) && Math.abs(k.length() - t.text.length()) <= allowed
                        && distance(k, t.text) <= allowed) {
                    throw new Problem("'" + t.span.in(text) + "' is not a word FabricLab reads; did you mean '" + k + "'?",
                            List.of(t.span));
                }
            }
        }
    }

    /** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** "2:1", "2:1 oversubscribed", "2 to 1 oversubscription", "non-blocking", "no oversubscription". */
    private void ratios() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.type == Token.Type.RATIO) {
                ratio(i, t.num, t.num2, List.of(i));
            } else if (t.isNumber() && !t.used && i + 2 < toks.size() && toks.get(i + 1).text.equals("to")
                    && toks.get(i + 2).isNumber() && clauseHas(i, C.OVERSUB)) {
                ratio(i, t.num, toks.get(i + 2).num, List.of(i, i + 1, i + 2));
            } else if (t.is(C.NONBLOCKING)) {
                set(Slot.OVERSUBSCRIPTION, 1.0, spans(i));
            } else if (t.is(C.OVERSUB) && is(prev(i), C.NEG)) {
                set(Slot.OVERSUBSCRIPTION, 1.0, spans(prev(i), i));
            }
        }
    }

    private void ratio(int i, double down, double up, List<Integer> idx) {
        List<Integer> all = new ArrayList<>(idx);
        all.addAll(clauseTokens(i, C.OVERSUB));
        if (up <= 0 || down <= 0) {
            throw new Problem(Understanding.quote(text, spans(all)) + ": a ratio needs two numbers above 0, such as 2:1", spans(all));
        }
        if (down < up) {
            throw new Problem(Understanding.quote(text, spans(all)) + " gives less downlink than uplink bandwidth; an oversubscription ratio is written "
                    + "downlink:uplink, at least 1:1 (e.g. 2:1)", spans(all));
        }
        if (down / up > 64) {
            throw new Problem(Understanding.quote(text, spans(all)) + " is more than 64:1 oversubscribed; allowed: 1:1 to 64:1", spans(all));
        }
        set(Slot.OVERSUBSCRIPTION, down / up, spans(all));
    }

    /** "k=8", "k 8", "k of 8", "8-ary", "k-ary ... k=8". */
    private void fatTreeK() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.is(C.K)) {
                int j = next(i);
                if (j >= 0 && is(j, C.WITH)) {
                    j = next(j);
                }
                if (j >= 0 && tok(j).isNumber() && !tok(j).used) {
                    set(Slot.K, whole(j, "k"), spans(i, j));
                }
            } else if (t.isNumber() && !t.used && is(i + 1, C.ARY) && clause[i + 1] == clause[i]) {
                set(Slot.K, whole(i, "k"), spans(i, i + 1));
                set(Slot.KIND, Kind.FAT_TREE, spans(i, i + 1));
            }
        }
    }

    /** named "x" / called x. */
    private void names() {
        for (int i = 0; i < toks.size(); i++) {
            if (toks.get(i).is(C.NAMED) && i + 1 < toks.size()) {
                Token n = toks.get(i + 1);
                if (n.type == Token.Type.QUOTED || (n.type == Token.Type.WORD && n.concept == null)) {
                    String name = n.type == Token.Type.QUOTED ? n.text.strip() : n.span.in(text);
                    if (name.isEmpty()) {
                        throw new Problem("a fabric name cannot be empty", spans(i, i + 1));
                    }
                    set(Slot.NAME, name, spans(i, i + 1));
                    n.concept = C.FILLER;
                }
            }
        }
    }

    /** Modifiers a number may stand before its noun with: "32 DGX H100 servers", "8 x 400G NICs", "4 Tomahawk 5 leaves". */
    private boolean modifier(int j) {
        Token t = toks.get(j);
        return t.type == Token.Type.SPEED || t.is(C.X) || t.is(C.GPU_MODEL) || t.is(C.SWITCH_MODEL)
                || (t.type == Token.Type.WORD && t.concept == null);
    }

    /**
     * A number written after its noun: "leaves: 4", "spines=2", or a clause in that style throughout
     * ("leaves 4 spines 2": it opens with a noun and ends with a number).
     */
    private boolean boundBackwards(int i) {
        if (i > 0 && toks.get(i - 1).is(C.IS) && toks.get(i - 1).type == Token.Type.PUNCT && i > 1
                && isAny(i - 2, NOUNS)) {
            return true;
        }
        int first = i;
        while (first > 0 && clause[first - 1] == clause[i] && toks.get(first - 1).concept != C.SEP) {
            first--;
        }
        int last = i;
        while (last + 1 < toks.size() && clause[last + 1] == clause[i] && toks.get(last + 1).concept != C.SEP) {
            last++;
        }
        return isAny(first, NOUNS) && toks.get(last).isNumber() && i > first && isAny(i - 1, NOUNS);
    }

    /** NUMBER [modifiers] NOUN [per|each NOUN], and NOUN with NUMBER NOUN. */
    private void counts() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (!t.isNumber() || t.used || boundBackwards(i)) {
                continue;
            }
            int j = i + 1;
            List<Integer> mods = new ArrayList<>();
            while (valid(j, i) && modifier(j)) {
                mods.add(j);
                j++;
            }
            if (!valid(j, i) || !isAny(j, NOUNS)) {
                continue;
            }
            C noun = tok(j).concept;
            boolean hyphen = j == i + 1 && toks.get(j).hyphenBefore;
            int after = j + 1 < toks.size() && valid(j + 1, i) ? j + 1 : -1;
            // Compounds: "8-GPU servers", "64-port switches", "32-server SUs", "32 DGX servers".
            if (noun == C.SERVER && hyphen && tok(j).text.startsWith("gpu ")) {
                set(Slot.GPUS_PER_SERVER, whole(i, "GPUs per server"), spans(i, j));
                continue;
            }
            if (noun == C.GPU && hyphen && after >= 0 && isAny(after, Set.of(C.SERVER, C.DGX))) {
                set(Slot.GPUS_PER_SERVER, whole(i, "GPUs per server"), spans(i, j, after));
                continue;
            }
            if (noun == C.PORT && after >= 0) {
                int k = after;
                while (valid(k, i) && modifier(k) && !isAny(k, SWITCHES)) {
                    k++;
                }
                if (valid(k, i) && isAny(k, SWITCHES)) {
                    set(Slot.RADIX, whole(i, "ports per switch"), spans(i, j, k));
                    speedsOf(mods, Slot.SPEED);
                    continue;
                }
            }
            if (SWITCHES.contains(noun) && mods.stream().anyMatch(m -> toks.get(m).is(C.X))
                    && mods.stream().anyMatch(m -> toks.get(m).type == Token.Type.SPEED)) {
                List<Integer> idx = new ArrayList<>(List.of(i, j));
                mods.stream().filter(m -> toks.get(m).is(C.X)).forEach(idx::add);
                set(Slot.RADIX, whole(i, "ports per switch"), spans(idx));
                speedsOf(mods, Slot.SPEED);
                continue;
            }
            if (noun == C.SERVER && hyphen && after >= 0 && isAny(after, Set.of(C.UNIT, C.LEAF))) {
                set(is(after, C.UNIT) ? Slot.SERVERS_PER_UNIT : Slot.SERVERS_PER_LEAF, whole(i, "servers"), spans(i, j, after));
                continue;
            }
            if ((noun == C.DGX || noun == C.GPU) && after >= 0) {
                int k = after;
                while (valid(k, i) && modifier(k)) {
                    k++;
                }
                if (valid(k, i) && isAny(k, Set.of(C.SERVER, C.DGX))) {
                    mods.add(j);
                    j = k;
                    noun = C.SERVER;
                    after = k + 1 < toks.size() && valid(k + 1, i) ? k + 1 : -1;
                }
            }
            // per / each
            int p = next(j);
            C per = null;
            List<Integer> perIdx = new ArrayList<>();
            if (p >= 0 && (is(p, C.PER) || is(p, C.EACH) || (is(p, C.BETWEEN) && noun != C.SERVER))) {
                int m = next(p);
                while (m >= 0 && (is(m, C.EACH) || is(m, C.PER))) {
                    m = next(m);
                }
                if (m >= 0 && is(p, C.BETWEEN) && is(m, C.TOPO_LS)) {
                    per = C.PAIR;
                    perIdx.add(p);
                    perIdx.add(m);
                } else if (m >= 0 && isAny(m, NOUNS)) {
                    per = tok(m).concept;
                    perIdx.add(p);
                    perIdx.add(m);
                    if (is(p, C.BETWEEN)) {
                        per = C.PAIR;
                        perIdx.addAll(clauseTokens(i, C.LEAF, C.SPINE));
                    }
                } else if (is(p, C.EACH)) {
                    per = C.EACH;
                    perIdx.add(p);
                }
            } else if (p >= 0 && isAny(p, Set.of(C.SPINE, C.PAIR)) && (noun == C.UPLINK || noun == C.LINK)) {
                per = C.PAIR; // "2 uplinks to every spine" after "to" glue, or "4 links leaf-spine pair"
                perIdx.add(p);
            }
            // "NOUN with NUMBER": the noun before "with" / "of".
            C owner = null;
            int w = prev(i);
            while (w >= 0 && modifier(w) && !tok(w).isNumber() && !is(w, C.X)) {
                w = prev(w);
            }
            int ownerIdx = -1;
            if (w >= 0 && (is(w, C.WITH) || is(w, C.X))) {
                int o = prev(w);
                while (o >= 0 && (is(o, C.EACH) || modifier(o))) {
                    o = prev(o);
                }
                if (o >= 0 && isAny(o, NOUNS)) {
                    owner = tok(o).concept;
                    ownerIdx = o;
                } else if (o < 0 || is(o, C.EACH)) {
                    owner = C.WITH; // "..., each with 8 GPUs"
                }
            }
            countInto(i, j, mods, noun, per, perIdx, owner, ownerIdx);
        }
    }

    private void countInto(int i, int j, List<Integer> mods, C noun, C per, List<Integer> perIdx, C owner, int ownerIdx) {
        List<Integer> idx = new ArrayList<>(List.of(i, j));
        idx.addAll(perIdx);
        countSpans(idx, mods);
        boolean perServer = per == C.SERVER || per == C.DGX || per == C.EACH || owner == C.SERVER || owner == C.DGX
                || (owner == C.WITH && sentenceHasBefore(i, C.SERVER, C.DGX));
        if (ownerIdx >= 0 && (owner == C.SERVER || owner == C.DGX || owner == C.UNIT || owner == C.LEAF)) {
            idx.add(ownerIdx);
        }
        String what = tok(j).span.in(text);
        switch (noun) {
            case LEAF -> set(Slot.LEAVES, whole(i, "leaves"), spans(idx));
            case SPINE -> set(Slot.SPINES, whole(i, "spines"), spans(idx));
            case CORE -> set(Slot.CORES, whole(i, "cores"), spans(idx));
            case UNIT -> set(per == C.GROUP ? Slot.UNITS_PER_GROUP : Slot.UNITS, whole(i, "scalable units"), spans(idx));
            case TIER -> set(Slot.TIERS, whole(i, "tiers"), spans(idx));
            case RAIL_WORD -> {
                set(Slot.GPUS_PER_SERVER, whole(i, "rails"), spans(idx));
                set(Slot.KIND, Kind.RAIL, spans(j));
            }
            case SERVER, DGX -> {
                Slot s = per == C.LEAF || owner == C.LEAF ? Slot.SERVERS_PER_LEAF
                        : per == C.UNIT || owner == C.UNIT ? Slot.SERVERS_PER_UNIT : Slot.SERVERS;
                set(s, whole(i, "servers"), spans(idx));

            }
            case GPU -> {
                set(perServer ? Slot.GPUS_PER_SERVER : Slot.GPUS, whole(i, "GPUs"), spans(idx));
                speedsOf(mods, Slot.NIC_SPEED);
            }
            case NIC -> {
                set(Slot.NICS_PER_SERVER, whole(i, "NICs per server"), spans(idx));
                speedsOf(mods, Slot.NIC_SPEED);
            }
            case PORT -> {
                boolean switchPorts = per != null && SWITCHES.contains(per) || owner != null && SWITCHES.contains(owner);
                boolean serverPorts = perServer || per == C.SERVER || (!switchPorts && clauseHas(i, C.SERVER, C.DGX, C.GPU, C.NIC));
                if (switchPorts) {
                    set(Slot.RADIX, whole(i, "ports per switch"), spans(idx));
                    speedsOf(mods, Slot.SPEED);
                } else if (serverPorts) {
                    set(Slot.NICS_PER_SERVER, whole(i, "ports per server"), spans(idx));
                    speedsOf(mods, Slot.NIC_SPEED);
                } else {
                    throw new Problem(q(i) + " " + what + ": ports of what? say '" + tok(i).text + "-port switches' or '"
                            + tok(i).text + " ports per server'", spans(idx));
                }
            }
            case UPLINK, LINK -> {
                if (per == C.PAIR || per == C.SPINE) {
                    set(Slot.UPLINKS_PER_PAIR, whole(i, "links per pair"), spans(idx));
                } else if (noun == C.UPLINK && (per == null || per == C.LEAF || per == C.EACH || owner == C.LEAF)) {
                    set(Slot.UPLINKS_PER_LEAF, whole(i, "uplinks per leaf"), spans(idx));
                } else {
                    throw new Problem(q(i) + " " + what + ": links between what? say '" + tok(i).text
                            + " links per leaf-spine pair' or '" + tok(i).text + " uplinks per leaf'", spans(idx));
                }
                speedsOf(mods, Slot.UPLINK_SPEED);
            }
            case SWITCH -> throw new Problem(q(i) + " " + what + ": which switches? say leaves, spines or cores (or '"
                    + tok(i).text + "-port switches' for their size)", spans(idx));
            case PAIR, GROUP, ARY -> {
                // Left for the rules that read them ("8-ary" is read by fatTreeK).
            }
            default -> {
            }
        }
    }

    /** The speed among a count's modifiers ("8 x 400G NICs") sets {@code slot}. */
    private void speedsOf(List<Integer> mods, Slot slot) {
        for (int m : mods) {
            Token t = toks.get(m);
            if (t.type == Token.Type.SPEED && !t.used) {
                set(slot, speed(m), spans(m));
            }
        }
    }

    private void countSpans(List<Integer> idx, List<Integer> mods) {
        for (int m : mods) {
            if (toks.get(m).is(C.X)) {
                idx.add(m);
            }
        }
    }

    private int speed(int i) {
        Token t = toks.get(i);
        int g = (int) Math.round(t.num);
        if (t.num != g || !Units.isAllowedSpeed(g)) {
            throw new Problem(q(i) + " is not a link speed FabricLab models; allowed: " + Units.allowedSpeeds(), List.of(t.span));
        }
        return g;
    }

    /** NOUN NUMBER: "radix 64", "priority 3", "DSCP 26", "leaves: 4", "GPUs per server: 8". */
    private void nounNumbers() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (!t.isNumber() || t.used) {
                continue;
            }
            int p = prev(i);
            if (p >= 0 && is(p, C.WITH)) {
                p = prev(p);
            }
            if (p < 0) {
                continue;
            }
            C c = tok(p).concept;
            if (c == null) {
                continue;
            }
            int pp = prev(p);
            if (NOUNS.contains(c) && pp >= 0 && is(pp, C.PER) && prev(pp) >= 0 && isAny(prev(pp), NOUNS)) {
                int n = prev(pp);
                countInto(i, n, List.of(), tok(n).concept, c, List.of(pp, p), null, -1);
                continue;
            }
            switch (c) {
                case RADIX -> set(Slot.RADIX, whole(i, "radix"), spans(p, i));
                case PRIORITY -> {
                    int v = whole(i, "priority");
                    if (v > 7) {
                        throw new Problem(q(p) + " " + q(i) + ": a priority (traffic class) is 0-7; DSCP values are "
                                + "0-63 (say 'DSCP " + v + "')", spans(p, i));
                    }
                    set(Slot.PRIORITY, v, spans(p, i));
                }
                case DSCP -> {
                    int v = whole(i, "DSCP");
                    if (v > 63) {
                        throw new Problem(q(p) + " " + q(i) + ": a DSCP value is 0-63", spans(p, i));
                    }
                    set(Slot.DSCP, v, spans(p, i));
                }
                case LEAF, SPINE, CORE, SERVER, DGX, GPU, UNIT, NIC, UPLINK, TIER ->
                        countInto(i, p, List.of(), c, null, List.of(), null, -1);
                default -> {
                }
            }
        }
    }

    /** A speed sets what it stands next to: NICs, uplinks, or every link. */
    private void speeds() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.type != Token.Type.SPEED || t.used) {
                continue;
            }
            int n = next(i);
            while (n >= 0 && modifier(n) && toks.get(n).type != Token.Type.SPEED) {
                n = next(n);
            }
            int p = prev(i);
            if (p >= 0 && is(p, C.WITH)) {
                p = prev(p);
            }
            Slot s = target(n);
            int by = n;
            if (s == null) {
                s = target(p);
                by = p;
            }
            if (s == null) {
                s = Slot.SPEED;
                by = -1;
                if (n >= 0 && is(n, C.ALL)) {
                    by = n;
                }
            }
            set(s, speed(i), spans(i, by));
        }
    }

    private Slot target(int i) {
        if (i < 0) {
            return null;
        }
        C c = tok(i).concept;
        if (c == null) {
            return null;
        }
        return switch (c) {
            case NIC, PORT, SERVER, DGX, GPU -> Slot.NIC_SPEED;
            case UPLINK, SPINE, CORE, TIER, PAIR -> Slot.UPLINK_SPEED;
            case LINK, SWITCH, LEAF, ALL, MEDIUM -> Slot.SPEED;
            default -> null;
        };
    }

    /** A length is a cable length of the tier its clause names. */
    private void lengths() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.type != Token.Type.LENGTH) {
                continue;
            }
            List<Integer> ctx = new ArrayList<>(List.of(i));
            Slot s;
            if (clauseHas(i, C.CORE)) {
                s = Slot.SPINE_CORE_CABLE;
                ctx.addAll(clauseTokens(i, C.CORE, C.SPINE, C.MEDIUM, C.BETWEEN, C.TIER));
            } else if (clauseHas(i, C.SERVER, C.DGX, C.NIC, C.GPU, C.DAC)) {
                s = Slot.SERVER_CABLE;
                ctx.addAll(clauseTokens(i, C.SERVER, C.DGX, C.NIC, C.GPU, C.DAC, C.MEDIUM, C.LEAF, C.BETWEEN));
            } else if ((clauseHas(i, C.LEAF) && clauseHas(i, C.SPINE)) || clauseHas(i, C.PAIR, C.TOPO_LS)) {
                s = Slot.LEAF_SPINE_CABLE;
                ctx.addAll(clauseTokens(i, C.LEAF, C.SPINE, C.PAIR, C.TOPO_LS, C.MEDIUM, C.BETWEEN, C.UPLINK, C.LINK));
            } else if (clauseHas(i, C.TIER, C.UPLINK, C.SPINE, C.SWITCH, C.MEDIUM, C.LINK, C.BETWEEN, C.LEAF)) {
                s = Slot.SWITCH_CABLE;
                ctx.addAll(clauseTokens(i, C.TIER, C.UPLINK, C.SPINE, C.SWITCH, C.MEDIUM, C.LINK, C.BETWEEN, C.LEAF, C.ALL));
            } else {
                throw new Problem(q(i) + ": a cable length between what? say '" + t.span.in(text) + " between tiers', '"
                        + t.span.in(text) + " to the servers' or '" + t.span.in(text) + " to the core'", List.of(t.span));
            }
            if (!(t.num > 0) || t.num > io.fabriclab.model.FabricLimits.MAX_CABLE_M) {
                throw new Problem(q(i) + ": a cable length must be above 0 and at most "
                        + (long) io.fabriclab.model.FabricLimits.MAX_CABLE_M + " m", spans(ctx));
            }
            if (clauseHas(i, C.DAC) && t.num > io.fabriclab.model.CableType.DAC.maxReachM()) {
                List<Integer> dac = clauseTokens(i, C.DAC);
                dac.add(i);
                throw new Problem(q(i) + " of " + q(dac.get(0)) + ": direct-attach copper reaches at most "
                        + io.fabriclab.topology.PriceBook.formatMetres(io.fabriclab.model.CableType.DAC.maxReachM()) + " m"
                        + "; FabricLab picks the cable type by length (optics past that), so drop the medium or shorten it",
                        spans(dac));
            }
            set(s, t.num, spans(ctx));
        }
    }

    /** PFC, ECN, DCQCN on or off; lossless, lossy, best effort; "only". */
    private void qos() {
        boolean only = false;
        List<Integer> onlyIdx = new ArrayList<>();
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (!isAny(i, QOS)) {
                continue;
            }
            // Negation: "no PFC", "without PFC or ECN", "PFC and ECN off", "PFC disabled".
            int neg = -1;
            for (int j = prev(i); j >= 0; j = prev(j)) {
                if (is(j, C.NEG)) {
                    neg = j;
                    break;
                }
                if (!isAny(j, QOS)) {
                    break;
                }
            }
            if (neg < 0) {
                for (int j = next(i); j >= 0; j = next(j)) {
                    if (is(j, C.OFF)) {
                        neg = j;
                        break;
                    }
                    if (!isAny(j, QOS) && !is(j, C.ONLY)) {
                        break;
                    }
                }
            }
            boolean on = neg < 0;
            for (int j : List.of(prev(i), next(i))) {
                if (is(j, C.ONLY)) {
                    only = true;
                    onlyIdx.add(j);
                }
            }
            switch (t.concept) {
                case PFC -> set(Slot.PFC, on, spans(i, neg));
                case ECN -> set(Slot.ECN, on, spans(i, neg));
                case DCQCN -> set(Slot.DCQCN, on, spans(i, neg));
                case LOSSLESS -> set(Slot.PFC, on, spans(i, neg));
                case LOSSY -> set(Slot.PFC, !on, spans(i, neg));
                case BEST_EFFORT -> {
                    set(Slot.PFC, false, spans(i, neg));
                    set(Slot.ECN, false, spans(i, neg));
                    set(Slot.DCQCN, false, spans(i, neg));
                }
                default -> {
                }
            }
        }
        if (only) {
            for (Slot s : List.of(Slot.PFC, Slot.ECN, Slot.DCQCN)) {
                if (!terms.containsKey(s)) {
                    set(s, false, spans(onlyIdx));
                }
            }
        }
    }

    /** Topology and transport words; GPUs; "DGX". */
    private void words() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.concept == null) {
                continue;
            }
            switch (t.concept) {
                case TOPO_LS -> {
                    if (!t.used) {
                        set(Slot.KIND, Kind.LEAF_SPINE, spans(i));
                    }
                }
                case TOPO_RAIL, RAIL_WORD -> set(Slot.KIND, Kind.RAIL, spans(i));
                case TOPO_FT -> set(Slot.KIND, Kind.FAT_TREE, spans(i));
                case IB -> set(Slot.TRANSPORT, Transport.INFINIBAND, spans(i));
                case UE -> set(Slot.TRANSPORT, Transport.ULTRA_ETHERNET, spans(i));
                case ROCE -> set(Slot.TRANSPORT, Transport.ROCEV2, spans(i));
                case GPU_MODEL -> set(Slot.GPU_MODEL, t.value, spans(i, i + 1 < toks.size() && toks.get(i + 1).is(C.GPU)
                        && !toks.get(i + 1).used ? i + 1 : -1));
                case DGX -> {
                    t.used = true;
                    dgx.add(t.span);
                }
                default -> {
                }
            }
        }
    }

    /** A switch product names the switches next to it ("Tomahawk 5 leaves", "spines on Spectrum-4"), else every switch. */
    private void models() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (!t.is(C.SWITCH_MODEL)) {
                continue;
            }
            int n = next(i);
            while (n >= 0 && (modifier(n) || tok(n).type == Token.Type.SPEED || is(n, C.PORT)) && !isAny(n, SWITCHES)) {
                n = next(n);
            }
            int p = prev(i);
            while (p >= 0 && (is(p, C.WITH) || tok(p).isNumber() || modifier(p))) {
                p = prev(p);
            }
            int role = isAny(n, SWITCHES) ? n : isAny(p, SWITCHES) ? p : -1;
            C c = role < 0 ? C.SWITCH : tok(role).concept;
            Slot s = switch (c) {
                case LEAF -> Slot.LEAF_MODEL;
                case SPINE -> Slot.SPINE_MODEL;
                case CORE -> Slot.CORE_MODEL;
                default -> Slot.SWITCH_MODEL;
            };
            set(s, t.value, spans(i, role));
        }
    }

    /** "8 per server", "16 per leaf", "32 per SU": the counted noun left out. */
    private void perOnly() {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (!t.isNumber() || t.used || !is(i + 1, C.PER) || clause[i + 1] != clause[i]) {
                continue;
            }
            int m = next(i + 1);
            if (m < 0) {
                continue;
            }
            C per = tok(m).concept;
            if (per == C.SERVER || per == C.DGX) {
                set(Slot.GPUS_PER_SERVER, whole(i, "GPUs per server"), spans(i, i + 1, m));
            } else if (per == C.LEAF) {
                set(Slot.SERVERS_PER_LEAF, whole(i, "servers per leaf"), spans(i, i + 1, m));
            } else if (per == C.UNIT) {
                set(Slot.SERVERS_PER_UNIT, whole(i, "servers per unit"), spans(i, i + 1, m));
            } else if (per == C.PAIR || per == C.SPINE) {
                set(Slot.UPLINKS_PER_PAIR, whole(i, "links per pair"), spans(i, i + 1, m));
            }
        }
    }

    /** A number nothing took, or a word that needs one, is refused; the rest is shown as unused or glue. */
    private void leftovers() {
        if (terms.isEmpty() && dgx.isEmpty()) {
            throw new Problem("FabricLab understood nothing in \"" + (text.length() > 60 ? text.substring(0, 60) + "..." : text)
                    + "\"; describe a fabric, e.g. \"" + Descriptions.EXAMPLE + "\"", List.of());
        }
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.used) {
                continue;
            }
            if (t.isNumber()) {
                int n = next(i);
                String around = n >= 0 ? q(i) + " " + q(n) : q(i);
                throw new Problem(around + ": a number FabricLab cannot place; say what it counts (e.g. '"
                        + t.text + " leaves', '" + t.text + " servers per leaf', 'radix " + t.text + "')", List.of(t.span));
            }
            if (t.is(C.OVERSUB)) {
                throw new Problem(q(i) + " needs a ratio, e.g. '2:1 oversubscribed' or 'non-blocking'", List.of(t.span));
            }
            if (t.type == Token.Type.LENGTH || t.type == Token.Type.RATIO) {
                throw new Problem(q(i) + ": FabricLab cannot place this", List.of(t.span));
            }
        }
    }

    /** Tokens in order of the text, for the highlighting of used, unused and glue words. */
    List<Token> tokens() {
        return toks;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
