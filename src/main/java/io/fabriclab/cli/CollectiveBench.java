package io.fabriclab.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.model.Fabric;
import io.fabriclab.sim.RoutingMode;
import io.fabriclab.sim.RoutingPolicy;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Simulator;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;
import io.fabriclab.workload.Collective;
import io.fabriclab.workload.Nics;
import io.fabriclab.workload.RingOrder;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fabriclab bench collective}: a 256-GPU ring all-reduce and all-to-all on one generated
 * rail-optimized scalable unit (32 servers x 8 GPUs, 400G NICs, 8 rail leaves, spines; the shipped
 * rail-1su.json), run to completion; prints the simulator's speed (events, events/s of the
 * simulator thread's CPU time and of wall time) and what nccl-tests would print (time, algbw,
 * busbw). CPU time is the fair figure on a shared machine; wall time is an upper bound.
 */
@Command(name = "collective", mixinStandardHelpOptions = true,
        description = {"Simulate a 256-GPU ring all-reduce and all-to-all (400G, 1 rail-optimized unit) and print",
                "events/s (simulator thread CPU and wall), simulated time, and time / algbw / busbw as nccl-tests does."})
final class CollectiveBench implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--kind", defaultValue = "both", description = "allreduce, alltoall or both (default: ${DEFAULT-VALUE})")
    String kind;

    @Option(names = "--bytes", defaultValue = "67108864", description = "S as nccl-tests defines it (default: ${DEFAULT-VALUE} = 64 MiB)")
    long bytes;

    @Option(names = "--alltoall-bytes", defaultValue = "16777216",
            description = "S of the all-to-all: what each rank sends in all (default: ${DEFAULT-VALUE} = 16 MiB, 64 KiB per peer)")
    long alltoallBytes;

    @Option(names = "--routing", defaultValue = "ecmp", description = "ecmp, spray, flowlet or adaptive (default: ${DEFAULT-VALUE})")
    String routing;

    @Option(names = "--runs", defaultValue = "1", description = "runs of each collective (default: ${DEFAULT-VALUE}; the first includes JIT warm-up)")
    int runs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RoutingMode mode = RoutingMode.fromJsonName(routing);
        if (mode == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--routing: one of " + RoutingMode.allowedNames());
        }
        List<Collective.Kind> kinds = switch (kind) {
            case "allreduce" -> List.of(Collective.Kind.ALL_REDUCE);
            case "alltoall" -> List.of(Collective.Kind.ALL_TO_ALL);
            case "both" -> List.of(Collective.Kind.ALL_REDUCE, Collective.Kind.ALL_TO_ALL);
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "--kind: allreduce, alltoall or both");
        };
        if (runs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--runs must be >= 1");
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.printf(Locale.ROOT, "bench collective: 1 rail-optimized unit (256 GPUs, 400G), routing %s, %d cores, load average %.1f, max heap %d MB%n",
                mode.jsonName(), Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Runtime.getRuntime().maxMemory() >> 20);
        out.flush();
        for (Collective.Kind k : kinds) {
            for (int r = 1; r <= runs; r++) {
                Fabric f = RailOptimizedGenerator.generate(RailParams.of(1));
                List<String> ranks = Nics.all(f);
                long s = k == Collective.Kind.ALL_TO_ALL ? alltoallBytes : bytes;
                Collective c = new Collective(k, "bench", ranks, s, 0, 3, 1, RingOrder.RAIL_AWARE);
                long b0 = System.nanoTime();
                // Built as every run is (app.RunService): the collective described, the routing mode set.
                Simulator sim = io.fabriclab.app.RunService.simulator(io.fabriclab.app.RunService.scenarioOf("bench", f, null,
                        io.fabriclab.sim.QosResolver.of(f), List.of(c), java.util.Map.of(), c.flows(f),
                        SimConfig.defaults().withMaxTimePs(10L * 1_000_000_000_000L), io.fabriclab.model.Transport.ROCEV2)
                        .withRouting(RoutingPolicy.of(mode)));
                long build = System.nanoTime() - b0;
                long cpu0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                SimResults res = sim.run();
                long wall = System.nanoTime() - t0;
                long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                SimResults.RunInfo run = res.run();
                SimResults.CollectiveResult cr = res.collectives().get(0);
                out.printf(Locale.ROOT, "%s %d%s: %d ranks, S %,d B, %,d flows: %,d events, CPU %.2f s (%.2f M events/s), wall %.2f s "
                                + "(%.2f M events/s), build %.2f s%n", k.jsonName(), r, r == 1 ? " (cold)" : "", cr.ranks(), s,
                        run.flows(), run.events(), cpu / 1e9, run.events() * 1e3 / Math.max(1, cpu), wall / 1e9,
                        run.events() * 1e3 / Math.max(1, wall), build / 1e9);
                out.printf(Locale.ROOT, "  %s: simulated %.1f us; collective time %.1f us, algbw %.2f GB/s, busbw %.2f GB/s "
                                + "(line rate 50 GB/s); %,d PFC pauses, %,d ECN marks, %,d drops%n",
                        run.stopReason().name().toLowerCase(Locale.ROOT).replace('_', ' '), run.simulatedPs() / 1e6,
                        cr.timePs() / 1e6, cr.algbwGBps(), cr.busbwGBps(), res.summary().pauseFramesSent(),
                        res.summary().ecnMarked(), res.summary().drops());
                out.flush();
            }
        }
        return ExitCode.OK;
    }
}
