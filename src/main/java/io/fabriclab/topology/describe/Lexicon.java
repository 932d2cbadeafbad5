package io.fabriclab.topology.describe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The words FabricLab reads in a description and what each means: one table of synonyms, plurals
 * and phrases (docs/describe.md prints it). Everything else is either a filler word (glue such as
 * "with", "the") or a word the description does not use, shown as such.
 */
final class Lexicon {
    /** Word classes. */
    enum C {
        LEAF, SPINE, CORE, SERVER, DGX, GPU, NIC, PORT, UNIT, SWITCH, UPLINK, LINK, RADIX, K, ARY, PAIR, GROUP, RAIL_WORD,
        TOPO_LS, TOPO_RAIL, TOPO_FT, TIER, OVERSUB, NONBLOCKING,
        PFC, ECN, DCQCN, LOSSLESS, LOSSY, BEST_EFFORT, PRIORITY, DSCP,
        IB, UE, ROCE,
        MEDIUM, DAC, BETWEEN, NEG, ONLY, OFF, PER, EACH, ALL, WITH, IS, X, NAMED,
        SWITCH_MODEL, GPU_MODEL, FILLER, SEP
    }

    private static final Map<String, C> WORDS = new HashMap<>();
    /** Phrases of two or more words, longest first. */
    private static final List<String[]> PHRASES = new ArrayList<>();
    private static final Map<String, C> PHRASE_CLASS = new HashMap<>();

    private static void words(C c, String... ws) {
        for (String w : ws) {
            if (w.contains(" ")) {
                PHRASES.add(w.split(" "));
                PHRASE_CLASS.put(w, c);
            } else {
                WORDS.put(w, c);
            }
        }
    }

    static {
        words(C.LEAF, "leaf", "leaves", "leafs", "tor", "tors", "top of rack", "top of racks", "edge", "edges",
                "leaf switch", "leaf switches", "tor switch", "tor switches", "edge switch", "edge switches",
                "top of rack switch", "top of rack switches", "access switch", "access switches", "rail leaf", "rail leaves");
        words(C.SPINE, "spine", "spines", "aggregation", "aggregations", "agg", "aggs", "spine switch", "spine switches",
                "aggregation switch", "aggregation switches", "agg switch", "agg switches");
        words(C.CORE, "core", "cores", "superspine", "superspines", "super spine", "super spines", "core switch",
                "core switches", "super spine switch", "super spine switches", "superspine switches");
        words(C.SERVER, "server", "servers", "node", "nodes", "host", "hosts", "machine", "machines", "system", "systems",
                "gpu server", "gpu servers", "gpu node", "gpu nodes", "compute node", "compute nodes", "gpu host", "gpu hosts",
                "gpu box", "gpu boxes", "box", "boxes");
        words(C.DGX, "dgx", "dgxs", "hgx", "hgxs", "dgx server", "dgx servers", "hgx server", "hgx servers", "dgx system",
                "dgx systems", "dgx node", "dgx nodes", "dgx box", "dgx boxes");
        words(C.GPU, "gpu", "gpus", "accelerator", "accelerators", "xpu", "xpus");
        words(C.NIC, "nic", "nics", "hca", "hcas", "rnic", "rnics", "adapter", "adapters", "network card", "network cards",
                "network adapter", "network adapters", "network interface", "network interfaces", "connectx", "supernic", "supernics", "downlink", "downlinks",
                "server link", "server links", "host link", "host links", "server port", "server ports");
        words(C.PORT, "port", "ports");
        words(C.UNIT, "su", "sus", "scalable unit", "scalable units", "pod", "pods", "unit", "units");
        words(C.SWITCH, "switch", "switches", "switch chip", "switch chips", "asic", "asics");
        words(C.UPLINK, "uplink", "uplinks", "up link", "up links");
        words(C.LINK, "link", "links", "connection", "connections");
        words(C.RADIX, "radix", "port count", "ports per switch");
        words(C.K, "k");
        words(C.ARY, "ary");
        words(C.PAIR, "pair", "pairs", "leaf spine pair", "leaf spine pairs", "leaf to spine pair", "leaf and spine pair");
        words(C.GROUP, "spine group", "spine groups");
        words(C.RAIL_WORD, "rail", "rails");
        words(C.TOPO_LS, "leaf spine", "leaf and spine", "leaf spine fabric", "clos", "spine leaf", "spine and leaf", "leafspine");
        words(C.TOPO_RAIL, "rail optimized", "rail optimised", "rail aligned", "rail based", "rail design", "rail optimization",
                "rail optimisation", "railoptimized");
        words(C.TOPO_FT, "fat tree", "fattree", "fat trees", "k ary", "kary", "fat tree topology");
        words(C.TIER, "tier", "tiers", "layer", "layers", "level", "levels");
        words(C.OVERSUB, "oversubscribed", "oversubscription", "oversub", "oversubscribe", "over subscribed",
                "over subscription", "blocking", "subscription", "subscribed", "taper", "tapered");
        words(C.NONBLOCKING, "nonblocking", "non blocking", "full bisection", "full bisection bandwidth", "fully non blocking",
                "rearrangeably non blocking");
        words(C.PFC, "pfc", "priority flow control", "pause frames", "pfc pause");
        words(C.ECN, "ecn", "wred", "red ecn", "explicit congestion notification", "ecn marking", "wred ecn", "wred marking", "red marking");
        words(C.DCQCN, "dcqcn", "dc qcn");
        words(C.LOSSLESS, "lossless", "loss less", "no drop", "drop free", "zero loss");
        words(C.LOSSY, "lossy");
        words(C.BEST_EFFORT, "best effort");
        words(C.PRIORITY, "priority", "priorities", "prio", "class", "classes", "traffic class", "traffic classes", "tc", "queue",
                "pcp", "cos", "priority group", "pg", "lossless priority", "lossless class", "lossless queue", "rdma priority");
        words(C.DSCP, "dscp", "dscp value");
        words(C.IB, "infiniband", "ib", "ndr", "xdr", "hdr", "infini band", "ndr infiniband", "xdr infiniband");
        words(C.UE, "ultra ethernet", "uec", "uet", "ultraethernet", "ultra ethernet transport");
        words(C.ROCE, "roce", "rocev2", "roce v2", "roce2", "ethernet", "lossless ethernet", "rdma over converged ethernet");
        words(C.MEDIUM, "fibre", "fiber", "fibres", "fibers", "optics", "optical", "optic", "aoc", "aocs", "cable", "cables",
                "cabling", "mmf", "smf", "multimode", "single mode", "singlemode", "patch", "transceiver", "transceivers",
                "run", "runs", "cable run", "cable runs", "wire", "wires", "wiring", "distance", "away", "long", "reach");
        words(C.DAC, "dac", "dacs", "copper", "direct attach", "direct attach copper", "twinax");
        words(C.BETWEEN, "between", "from");
        words(C.NEG, "no", "without", "not", "none", "disable", "w/o", "never");
        words(C.OFF, "off", "disabled", "turned off", "switched off");
        words(C.ONLY, "only", "just", "alone");
        words(C.PER, "per", "a", "an", "/");
        words(C.EACH, "each", "apiece", "every");
        words(C.ALL, "all", "everywhere", "throughout", "end to end", "everything", "entire", "whole", "uniform");
        words(C.WITH, "with", "having", "of", "carrying", "holding", "containing", "has", "have", "featuring");
        words(C.IS, "=", ":", "is", "are", "be", "equals", "set to", "of size", "sized");
        words(C.X, "x", "×", "*");
        words(C.NAMED, "named", "called", "name", "titled");
        words(C.SEP, "but", "then", "while", "whereas", "plus", ";", "(", ")", "[", "]");
        words(C.FILLER, "the", "and", "&", "+", "or", "on", "in", "at", "to", "for", "using", "use", "uses", "via", "by", "as",
                "it", "its", "that", "which", "we", "i", "me", "my", "our", "please", "want", "need", "needs", "build", "make",
                "create", "give", "design", "fabric", "network", "cluster", "topology", "training", "ai", "ml", "rdma",
                "enabled", "enable", "turned", "set", "setup", "also", "total", "overall", "altogether", "running", "run on",
                "configured", "config", "style", "connected", "interconnect", "over", "across", "through", "tuned", "speed",
                "speeds", "bandwidth", "ratio", "there", "some", "about", "into", "up", "down", "towards", "toward", "sxm",
                "sxm5", "sxm4", "pcie", "gen", "based", "new", "like", "should", "will", "would", "can", "let", "lets",
                "let's", "go", "going", "with a", "each with", "which have", "in total", "wired", "attached", "hooked",
                "linked", "facing", "side", "way", "under", "behind", "below", "above", "them", "ways", "s", "ai fabric", "backend", "back end", "scale out", "on top",
                "both", "class of service", "lab", "containerlab");
        PHRASES.sort(Comparator.comparingInt((String[] p) -> p.length).reversed());
    }

    private Lexicon() {
    }

    /** The class of one word, or null. */
    static C word(String w) {
        return WORDS.get(w);
    }

    /** The phrases of two or more words, longest first, and their classes. */
    static List<String[]> phrases() {
        return PHRASES;
    }

    static C phrase(String joined) {
        return PHRASE_CLASS.get(joined);
    }

    /** Every word the lexicon knows (single words and the words of phrases), for suggestions. */
    static Set<String> knownWords() {
        Set<String> all = new TreeSet<>();
        WORDS.forEach((w, c) -> {
            if (c != C.FILLER && c != C.PER && c != C.IS && c != C.X && w.length() >= 3) {
                all.add(w);
            }
        });
        PHRASE_CLASS.forEach((p, c) -> {
            for (String w : p.split(" ")) {
                if (w.length() >= 3) {
                    all.add(w);
                }
            }
        });
        return all;
    }

    /** Every entry of one class, single words and phrases, sorted, for docs/describe.md and its test. */
    static List<String> entries(C c) {
        Set<String> out = new TreeSet<>();
        WORDS.forEach((w, k) -> {
            if (k == c) {
                out.add(w);
            }
        });
        PHRASE_CLASS.forEach((w, k) -> {
            if (k == c) {
                out.add(w);
            }
        });
        return List.copyOf(out);
    }
}
