package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.io.FabricReader;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.report.TransportRuns;
import io.fabriclab.sim.QosResolver;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;
import io.fabriclab.topology.TextTable;
import io.fabriclab.workload.Gpus;
import io.fabriclab.workload.NcclCollective;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fabriclab bench nccl}: what nccl-tests' all_reduce_perf and alltoall_perf print, simulated:
 * for each size from --min to --max (doubling by --factor), each transport, the algorithm NCCL's
 * tuning would choose, the time, algbw and busbw; every GPU of the fabric (default: one generated
 * rail-optimized unit, 256 H100 GPUs at 400G). One run at a time.
 */
@Command(name = "nccl", mixinStandardHelpOptions = true,
        description = {"Simulate an nccl-tests sweep: all-reduce or all-to-all over every GPU, sizes --min to --max,",
                "per transport: algorithm, time, algbw, busbw (GB/s, nccl-tests' definitions)."})
final class NcclBench implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--fabric", paramLabel = "FILE", description = "fabric file (default: a generated 1-unit rail fabric, 256 GPUs, 400G)")
    Path fabricFile;

    @Option(names = "--op", defaultValue = "allreduce", description = "allreduce or alltoall (default: ${DEFAULT-VALUE})")
    String op;

    @Option(names = "--min", defaultValue = "1048576", description = "smallest S in bytes (default: ${DEFAULT-VALUE} = 1 MiB)")
    long min;

    @Option(names = "--max", defaultValue = "1073741824", description = "largest S in bytes (default: ${DEFAULT-VALUE} = 1 GiB)")
    long max;

    @Option(names = "--factor", defaultValue = "4", description = "size step (default: ${DEFAULT-VALUE})")
    int factor;

    @Option(names = "--transports", defaultValue = "rocev2,infiniband,ultra-ethernet", description = "(default: ${DEFAULT-VALUE})")
    String transports;

    @Option(names = "--algorithm", defaultValue = "auto", description = "auto (as NCCL's tuning) or one that applies")
    String algorithm;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        NcclCollective.Op o = NcclCollective.Op.fromJsonName(op);
        if (o == null || (o != NcclCollective.Op.ALL_REDUCE && o != NcclCollective.Op.ALL_TO_ALL)) {
            throw new BadInputException("--op: allreduce or alltoall");
        }
        NcclCollective.Algorithm a = NcclCollective.Algorithm.fromJsonName(algorithm);
        if (a == null || !a.applies(o)) {
            throw new BadInputException("--algorithm: for " + o.jsonName() + " one of " + NcclCollective.allowed(o));
        }
        if (min < 1 || max < min || factor < 2) {
            throw new BadInputException("--min, --max, --factor: 1 <= min <= max, factor >= 2");
        }
        List<Transport> ts = CompareCommand.parseTransports(transports);
        Fabric base = fabricFile == null ? RailOptimizedGenerator.generate(RailParams.of(1)) : FabricReader.FILES.read(fabricFile);
        List<String> gpus = Gpus.all(base);
        out.printf(Locale.ROOT, "bench nccl: %s over %d GPUs of %s, %d cores, load average %.1f%n", o.jsonName(), gpus.size(),
                base.name(), Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        List<String> head = new ArrayList<>(List.of("size", "algorithm"));
        for (Transport t : ts) {
            head.add(t.jsonName() + " us");
            head.add("algbw");
            head.add("busbw");
        }
        TextTable table = new TextTable(head.toArray(new String[0]));
        for (long s = min; s <= max; s = s > Long.MAX_VALUE / factor ? Long.MAX_VALUE : s * factor) {
            List<Object> row = new ArrayList<>();
            row.add(size(s));
            NcclCollective c = new NcclCollective(o, "bench", gpus, Math.max(s, gpus.size()), a,
                    NcclCollective.DEFAULT_CHANNELS_PER_RAIL, 3);
            row.add(c.plan(base).algorithm().jsonName());
            for (Transport t : ts) {
                Fabric f = base.copy();
                Simulator sim = TransportRuns.simulator(f, c.flows(f),
                        SimConfig.defaults().withMaxTimePs(100L * 1_000_000_000_000L), QosResolver.of(f), t);
                sim.describeNcclCollectives(List.of(c));
                SimResults.CollectiveResult run = sim.run().collectives().get(0);
                row.add(run.finishPs() >= 0 ? String.format(Locale.ROOT, "%.1f", run.timePs() / 1e6) : "-");
                row.add(String.format(Locale.ROOT, "%.2f", run.algbwGBps()));
                row.add(String.format(Locale.ROOT, "%.2f", run.busbwGBps()));
            }
            table.row(row.toArray());
            out.print("  " + String.join("  ", row.stream().map(String::valueOf).toList()) + "\n");
            out.flush();
            if (s == Long.MAX_VALUE) {
                break;
            }
        }
        out.print(table);
        out.flush();
        return ExitCode.OK;
    }

    private static String size(long b) {
        if (b >= 1L << 30 && b % (1L << 30) == 0) {
            return (b >> 30) + " GiB";
        }
        if (b >= 1L << 20 && b % (1L << 20) == 0) {
            return (b >> 20) + " MiB";
        }
        if (b >= 1L << 10 && b % (1L << 10) == 0) {
            return (b >> 10) + " KiB";
        }
        return b + " B";
    }
}
