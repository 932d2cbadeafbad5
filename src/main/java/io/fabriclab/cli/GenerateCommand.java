package io.fabriclab.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.Units;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.FatTreeGenerator;
import io.fabriclab.topology.FatTreeParams;
import io.fabriclab.topology.LeafSpineGenerator;
import io.fabriclab.topology.LeafSpineParams;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `fabriclab generate leaf-spine|rail|fat-tree [params] -o FILE`. */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Generate a fabric and write it to a file (.json, .clab.yml, .graphml, .dot).",
        subcommands = {GenerateCommand.LeafSpine.class, GenerateCommand.Rail.class, GenerateCommand.FatTree.class})
public final class GenerateCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a topology: leaf-spine, rail or fat-tree");
    }

    /** Options every generator shares. */
    static final class Output {
        @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
                description = "Where to write the fabric; the ending picks the format.")
        Path output;

        @Option(names = "--name", paramLabel = "NAME", description = "Fabric name (default: derived from the parameters).")
        String name;

        @Option(names = "--gpu", defaultValue = "H100", paramLabel = "GPU", completionCandidates = KnownGpus.class,
                description = "GPU of every server, which gives its NVLink / NVSwitch scale-up domain: ${COMPLETION-CANDIDATES} "
                        + "(default: ${DEFAULT-VALUE}; docs/format.md cites each one's figures).")
        String gpu;

        /** Checks the output and the GPU before anything is generated (Outputs). */
        void checkOutput() {
            new Outputs().fabricFile("-o", output).check();
            scaleUp();
        }

        /** The scale-up domain of {@code --gpu}; a GPU FabricLab has no figures for is bad input. */
        ScaleUp scaleUp() {
            ScaleUp s = ScaleUp.of(gpu);
            if (s == null) {
                throw new BadInputException("--gpu " + gpu + " is not a GPU FabricLab has figures for; allowed: "
                        + ScaleUp.knownNames() + " (other GPUs: set scaleUp in the file, docs/format.md)");
            }
            return s;
        }

        int write(CommandLine cl, Fabric f) throws Exception {
            if (name != null) {
                f.setName(name);
            }
            FabricFiles.save(f, output);
            FabricAnalysis.Counts c = FabricAnalysis.Counts.of(f);
            cl.getOut().printf("wrote %s: %d switches (%s), %d servers, %d GPUs, %d links%n", output, c.switches(),
                    byRole(c.switchesByRole()), c.servers(), c.gpus(), c.links());
            cl.getOut().printf("GPUs: %s%n", scaleUp().describe());
            return ExitCode.OK;
        }
    }

    /** The GPUs {@code --gpu} offers (picocli lists them in the help and in shell completion). */
    static final class KnownGpus implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return ScaleUp.known().stream().map(ScaleUp::gpu).iterator();
        }
    }

    /** "512 leaf, 256 spine" in the roles' order, never Java's map text ({LEAF=512, ...}). */
    static String byRole(Map<io.fabriclab.model.DeviceRole, Integer> counts) {
        java.util.StringJoiner j = new java.util.StringJoiner(", ");
        for (io.fabriclab.model.DeviceRole r : io.fabriclab.model.DeviceRole.values()) {
            Integer n = counts.get(r);
            if (n != null && n > 0) {
                j.add(n + " " + r.jsonName());
            }
        }
        return j.toString();
    }

    static int speed(String text, String option) {
        int g = Units.parseSpeedGbps(text);
        if (!Units.isAllowedSpeed(g)) {
            throw new BadInputException(option + " " + text + " is not allowed; allowed: " + Units.allowedSpeeds());
        }
        return g;
    }

    /**
     * The generators check their parameters by the names of their record components, which open the
     * message ({@code uplinksPerLeafSpinePair must be at least 1, was 0}); a user of {@code generate}
     * typed options. The leading component name becomes the option that sets it, so the error names
     * what the user can change ({@code --uplinks-per-pair must be at least 1, was 0}). Messages that
     * open with prose ("a leaf needs ...") are left as they are.
     */
    static BadInputException inOptionWords(IllegalArgumentException e, Map<String, String> optionOf) {
        String msg = String.valueOf(e.getMessage());
        Matcher m = Pattern.compile("^([A-Za-z]+)\\b").matcher(msg);
        if (m.find() && optionOf.containsKey(m.group(1))) {
            msg = optionOf.get(m.group(1)) + msg.substring(m.end());
        }
        return new BadInputException(msg, e);
    }

    /**
     * A refusal that names a count (ports, devices, links, a leaf's or a spine group's ports) but no
     * option, because several options multiply into it: the message gets the formula in option
     * words and the values given, so the user sees what to change.
     */
    record SizeRule(Pattern message, String formula, List<String> options) {
        SizeRule(String message, String formula, String... options) {
            this(Pattern.compile(message), formula, List.of(options));
        }
    }

    static final List<SizeRule> LEAF_SPINE_SIZES = List.of(
            new SizeRule("^a device would have \\d+ ports", "a leaf has --servers-per-leaf x --nics-per-server + --spines x "
                    + "--uplinks-per-pair ports, a spine --leaves x --uplinks-per-pair, every switch at least --radix",
                    "--servers-per-leaf", "--nics-per-server", "--spines", "--uplinks-per-pair", "--leaves", "--radix"),
            new SizeRule("^the fabric would have \\d+ devices", "--leaves + --spines + --leaves x --servers-per-leaf",
                    "--leaves", "--spines", "--servers-per-leaf"),
            new SizeRule("^the fabric would have \\d+ links", "--leaves x --servers-per-leaf x --nics-per-server "
                    + "+ --leaves x --spines x --uplinks-per-pair", "--leaves", "--servers-per-leaf", "--nics-per-server",
                    "--spines", "--uplinks-per-pair"),
            new SizeRule("^a leaf needs", "a leaf has --servers-per-leaf x --nics-per-server + --spines x --uplinks-per-pair "
                    + "ports, at most --radix", "--servers-per-leaf", "--nics-per-server", "--spines", "--uplinks-per-pair", "--radix"));
    static final List<SizeRule> RAIL_SIZES = List.of(
            new SizeRule("^a device would have \\d+ ports", "every switch has --radix ports, every server --gpus-per-server NICs",
                    "--radix", "--gpus-per-server"),
            new SizeRule("^the fabric would have \\d+ devices", "--units x --servers-per-unit servers + --units x "
                    + "--gpus-per-server rail leaves, plus spines and cores", "--units", "--servers-per-unit", "--gpus-per-server"),
            new SizeRule("^the fabric would have \\d+ links", "--units x --servers-per-unit x --gpus-per-server server links "
                    + "+ --units x --gpus-per-server x --leaf-uplinks uplinks", "--units", "--servers-per-unit", "--gpus-per-server",
                    "--leaf-uplinks"),
            new SizeRule("^a rail leaf needs", "--servers-per-unit + --leaf-uplinks must be at most --radix",
                    "--servers-per-unit", "--leaf-uplinks", "--radix"),
            new SizeRule("^a spine group of", "a spine group joins --gpus-per-server rail leaves per unit; a spine has "
                    + "--radix / 2 down ports", "--gpus-per-server", "--radix"),
            new SizeRule("spine groups exceed", "--units make the spine groups; a core has --radix ports", "--units", "--radix"));
    static final List<SizeRule> FAT_TREE_SIZES = List.of(
            new SizeRule("^a device would have \\d+ ports", "every switch has -k + --spare-ports ports", "-k", "--spare-ports"),
            new SizeRule("^the fabric would have \\d+ devices", "k^3/4 hosts + 5k^2/4 switches", "-k"),
            new SizeRule("^the fabric would have \\d+ links", "3k^3/4 links", "-k"));

    /**
     * As {@link #inOptionWords(IllegalArgumentException, Map)}, and a size refusal ("the fabric would
     * have 4016000 links") also names the options that make the count and their values.
     */
    static BadInputException inOptionWords(IllegalArgumentException e, Map<String, String> optionOf,
                                           CommandLine.Model.CommandSpec spec, List<SizeRule> sizes) {
        BadInputException b = inOptionWords(e, optionOf);
        String msg = b.getMessage();
        for (SizeRule r : sizes) {
            if (r.message().matcher(msg).find()) {
                java.util.StringJoiner given = new java.util.StringJoiner(", ");
                for (String o : r.options()) {
                    CommandLine.Model.OptionSpec os = spec.findOption(o);
                    Object v = os == null ? null : os.getValue();
                    given.add(o + " " + (v == null ? "(default)" : v));
                }
                return new BadInputException(msg + " (" + r.formula() + "; here " + given + ")", e);
            }
        }
        return b;
    }

    /** LeafSpineParams component -> the option that sets it. */
    static final Map<String, String> LEAF_SPINE_OPTIONS = Map.ofEntries(Map.entry("leaves", "--leaves"),
            Map.entry("spines", "--spines"), Map.entry("serversPerLeaf", "--servers-per-leaf"),
            Map.entry("nicsPerServer", "--nics-per-server"), Map.entry("uplinksPerLeafSpinePair", "--uplinks-per-pair"),
            Map.entry("nicSpeedGbps", "--nic-speed"), Map.entry("uplinkSpeedGbps", "--uplink-speed"),
            Map.entry("serverCableM", "--server-cable"), Map.entry("leafSpineCableM", "--uplink-cable"),
            Map.entry("switchRadix", "--radix"), Map.entry("scaleUp", "--gpu"));
    /** RailParams component -> the option that sets it (cable lengths are the defaults, not options). */
    static final Map<String, String> RAIL_OPTIONS = Map.of("units", "--units", "serversPerUnit", "--servers-per-unit",
            "gpusPerServer", "--gpus-per-server", "radix", "--radix", "speedGbps", "--speed",
            "leafUplinks", "--leaf-uplinks", "scaleUp", "--gpu");
    /** FatTreeParams component -> the option that sets it. */
    static final Map<String, String> FAT_TREE_OPTIONS = Map.of("k", "-k", "speedGbps", "--speed", "sparePorts", "--spare-ports",
            "scaleUp", "--gpu");

    @Command(name = "leaf-spine", mixinStandardHelpOptions = true,
            description = "Two-tier leaf-spine (Clos). Defaults: the classic 4 leaves, 2 spines, 32 servers, 100G host ports, 400G uplinks.")
    static final class LeafSpine implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        Output out = new Output();

        @Option(names = "--leaves", defaultValue = "4", description = "Leaf switches (default: ${DEFAULT-VALUE}).")
        int leaves;
        @Option(names = "--spines", defaultValue = "2", description = "Spine switches (default: ${DEFAULT-VALUE}).")
        int spines;
        @Option(names = "--servers-per-leaf", defaultValue = "8", description = "Servers per leaf (default: ${DEFAULT-VALUE}).")
        int serversPerLeaf;
        @Option(names = "--nics-per-server", defaultValue = "1", description = "NICs (GPUs) per server (default: ${DEFAULT-VALUE}).")
        int nicsPerServer;
        @Option(names = "--nic-speed", defaultValue = "100G", description = "NIC port speed (default: ${DEFAULT-VALUE}).")
        String nicSpeed;
        @Option(names = "--uplinks-per-pair", defaultValue = "1", description = "Links between each leaf and each spine (default: ${DEFAULT-VALUE}).")
        int uplinksPerPair;
        @Option(names = "--uplink-speed", defaultValue = "400G", description = "Leaf-spine link speed (default: ${DEFAULT-VALUE}).")
        String uplinkSpeed;
        @Option(names = "--server-cable", defaultValue = "3", paramLabel = "METRES", description = "Server-leaf cable length in m (default: ${DEFAULT-VALUE}).")
        double serverCableM;
        @Option(names = "--uplink-cable", defaultValue = "30", paramLabel = "METRES", description = "Leaf-spine cable length in m (default: ${DEFAULT-VALUE}).")
        double uplinkCableM;
        @Option(names = "--radix", paramLabel = "PORTS", description = "Ports per switch (default: exactly the ports used).")
        Integer radix;

        @Override
        public Integer call() throws Exception {
            out.checkOutput();
            LeafSpineParams p;
            try {
                p = new LeafSpineParams(leaves, spines, serversPerLeaf, nicsPerServer, speed(nicSpeed, "--nic-speed"),
                        uplinksPerPair, speed(uplinkSpeed, "--uplink-speed"), serverCableM, uplinkCableM, radix,
                        out.scaleUp());
            } catch (IllegalArgumentException e) {
                throw inOptionWords(e, LEAF_SPINE_OPTIONS, spec, LEAF_SPINE_SIZES);
            }
            return out.write(spec.commandLine(), LeafSpineGenerator.generate(p));
        }
    }

    @Command(name = "rail", mixinStandardHelpOptions = true,
            description = "Rail-optimized scalable units (NIC k of every server to the rail-k leaf), spines, and a core tier past two-tier reach.")
    static final class Rail implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        Output out = new Output();

        @Option(names = "--units", defaultValue = "1", description = "Scalable units (default: ${DEFAULT-VALUE}).")
        int units;
        @Option(names = "--servers-per-unit", defaultValue = "32", description = "Servers per unit (default: ${DEFAULT-VALUE}).")
        int serversPerUnit;
        @Option(names = "--gpus-per-server", defaultValue = "8", description = "GPUs (and NICs, rails) per server (default: ${DEFAULT-VALUE}).")
        int gpusPerServer;
        @Option(names = "--radix", defaultValue = "64", description = "Ports per switch (default: ${DEFAULT-VALUE}).")
        int radix;
        @Option(names = "--speed", defaultValue = "400G", description = "Speed of every link (default: ${DEFAULT-VALUE}).")
        String speed;
        @Option(names = "--leaf-uplinks", paramLabel = "N",
                description = "Uplinks per rail leaf (default: servers per unit, i.e. non-blocking 1:1).")
        Integer leafUplinks;

        @Override
        public Integer call() throws Exception {
            out.checkOutput();
            RailParams d = RailParams.of(1); // the default cable lengths, which do not depend on the size
            RailParams p;
            try {
                p = new RailParams(units, serversPerUnit, gpusPerServer, radix, speed(speed, "--speed"),
                        d.serverCableM(), d.leafSpineCableM(), d.spineCoreCableM(),
                        leafUplinks == null ? serversPerUnit : leafUplinks, d.unitsPerSpineGroup(), out.scaleUp());
                return out.write(spec.commandLine(), RailOptimizedGenerator.generate(p));
            } catch (IllegalArgumentException e) {
                throw inOptionWords(e, RAIL_OPTIONS, spec, RAIL_SIZES);
            }
        }
    }

    @Command(name = "fat-tree", mixinStandardHelpOptions = true,
            description = "Three-tier k-ary fat tree: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 core, k^3/4 hosts.")
    static final class FatTree implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        Output out = new Output();

        @Option(names = "-k", defaultValue = "4", description = "Switch radix k, even (default: ${DEFAULT-VALUE}).")
        int k;
        @Option(names = "--speed", defaultValue = "100G", description = "Speed of every link (default: ${DEFAULT-VALUE}).")
        String speed;
        @Option(names = "--spare-ports", defaultValue = "0", paramLabel = "PORTS",
                description = "Free ports on every switch beyond the k in use, room to grow (default: ${DEFAULT-VALUE}).")
        int sparePorts;

        @Override
        public Integer call() throws Exception {
            out.checkOutput();
            FatTreeParams d = FatTreeParams.of(2); // the default cable lengths, which do not depend on k
            try {
                FatTreeParams p = new FatTreeParams(k, speed(speed, "--speed"), d.hostCableM(), d.edgeAggCableM(),
                        d.aggCoreCableM(), sparePorts, out.scaleUp());
                return out.write(spec.commandLine(), FatTreeGenerator.generate(p));
            } catch (IllegalArgumentException e) {
                throw inOptionWords(e, FAT_TREE_OPTIONS, spec, FAT_TREE_SIZES);
            }
        }
    }
}
