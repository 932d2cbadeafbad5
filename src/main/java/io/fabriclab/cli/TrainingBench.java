package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.io.FabricReader;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Transport;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimConfig;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.StepAnalysis;
import io.fabriclab.topology.RailOptimizedGenerator;
import io.fabriclab.topology.RailParams;
import io.fabriclab.topology.TextTable;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.TrainingJob;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fabriclab bench training}: one training step on a generated rail-optimized cluster (or a
 * fabric file), built and run by each engine in turn, alternating, {@code --runs} times: the time
 * to build the step's tasks (wall and this thread's CPU time), to prepare the run (the scenario
 * and the engine over the tasks: resolving every task's NICs and dependencies), the engine's own time (its wall
 * time as it reports it, and this thread's CPU time until its last progress report, which comes
 * just before it builds its results), the time it then takes to build its results, the step it
 * found and the most heap in use.
 * Nothing is written; the figures go to docs/performance.md.
 */
@Command(name = "training", mixinStandardHelpOptions = true,
        description = {"Time a training step on the packet and flow engines, alternating: build, engine (wall and CPU), results, step, peak heap.",
                "Default: gpt2-124m on a generated 4-unit rail cluster (1,024 H100 GPUs, 400G)."})
final class TrainingBench implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--fabric", paramLabel = "FILE", description = "fabric file (default: a generated rail cluster of --units units)")
    Path fabricFile;

    @Option(names = "--units", defaultValue = "4", description = "scalable units of 256 GPUs to generate (default: ${DEFAULT-VALUE})")
    int units;

    @Option(names = "--model", defaultValue = "gpt2-124m", description = "training preset (default: ${DEFAULT-VALUE})")
    String model;

    @Option(names = "--engines", defaultValue = "flow,packet", description = "engines in the order they alternate (default: ${DEFAULT-VALUE})")
    String engines;

    @Option(names = "--runs", defaultValue = "1", description = "rounds of every engine (default: ${DEFAULT-VALUE})")
    int runs;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        TrainingJob.Model m = TrainingJob.PRESETS.get(model);
        if (m == null) {
            throw new BadInputException("--model: one of " + String.join(", ", TrainingJob.PRESETS.keySet().stream().sorted().toList()));
        }
        if (units < 1 || units > 1024 || runs < 1 || runs > 100) {
            throw new BadInputException("--units 1-1024, --runs 1-100");
        }
        List<Engine> order = new ArrayList<>();
        for (String e : engines.split(",")) {
            try {
                order.add(Engine.parse(e.trim()));
            } catch (IllegalArgumentException x) {
                throw new BadInputException("--engines: " + x.getMessage());
            }
        }
        long t0 = System.nanoTime();
        Fabric fabric = fabricFile == null ? RailOptimizedGenerator.generate(RailParams.of(units)) : FabricReader.FILES.read(fabricFile);
        long fabricNs = System.nanoTime() - t0;
        TrainingJob job = TrainingJob.on(fabric, model, m, null, null, null, 1, 0, 0, true,
                TrainingJob.DEFAULT_BUCKET_BYTES, false, TrainingJob.DEFAULT_GRADIENT_BYTES);
        out.printf(Locale.ROOT, "bench training: %s on %s (%,d devices, %,d links; %.1f s to %s), %d cores, load average %.1f%n",
                job.describe(), fabric.name(), fabric.devices().size(), fabric.links().size(), fabricNs / 1e9,
                fabricFile == null ? "generate" : "read", Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuTime = threads.isCurrentThreadCpuTimeSupported();
        if (cpuTime && !threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
        TextTable table = new TextTable("run", "engine", "tasks", "rings", "build s", "build cpu s", "prepare s", "engine s",
                "engine cpu s", "results s", "step ms", "tokens/s", "peak heap MB");
        for (int run = 1; run <= runs; run++) {
            for (Engine e : order) {
                System.gc();
                ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
                long b0 = System.nanoTime();
                long bc0 = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
                TrainingJob.Built built = job.build(fabric, TrainingJob.STEP_BY_STEP_TASKS);
                List<FlowSpec> tasks = built.tasks();
                long buildNs = System.nanoTime() - b0;
                long buildCpuNs = cpuTime ? threads.getCurrentThreadCpuTime() - bc0 : -1;
                SimConfig cfg = SimConfig.defaults().withMaxTimePs(StepAnalysis.maxTimePs(job));
                // Built by the run service as a scenario of the job's tasks (the job's bucket collectives
                // then go to StepAnalysis, as in a training scenario).
                long p0 = System.nanoTime();
                io.fabriclab.app.RunService.Run sim = io.fabriclab.app.RunService.prepare(new io.fabriclab.app.RunService.Request(
                        job.name(), io.fabriclab.app.RunService.scenarioOf(job.describe(), fabric, null,
                        io.fabriclab.sim.QosResolver.of(fabric), List.of(job), built.collectives(), tasks, cfg, Transport.ROCEV2), e));
                long prepareNs = System.nanoTime() - p0;
                // The engine runs on this thread and reports progress last just before it builds its
                // results: the thread's CPU time then, less before, is the engine's own CPU time (the
                // serial collector's pauses run on the VM thread and are not in it).
                long[] engineCpuEnd = {-1};
                long[] engineWallEnd = {-1};
                long c0 = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
                SimResults r = sim.run((simulated, endPs, events, wallNanos, flowsCompleted, flows) -> {
                    engineCpuEnd[0] = cpuTime ? threads.getCurrentThreadCpuTime() : -1;
                    engineWallEnd[0] = System.nanoTime();
                });
                long runEnd = System.nanoTime();
                StepAnalysis.Result a = StepAnalysis.of(tasks, job.name(), r, job.tokensPerStep(), built.collectives());
                long peak = 0;
                for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                    if (pool.getType() == MemoryType.HEAP) {
                        peak += pool.getPeakUsage().getUsed();
                    }
                }
                List<Object> row = List.of(run, e.jsonName(), String.format(Locale.ROOT, "%,d", tasks.size()),
                        built.steadyRings() ? "steady" : "steps", String.format(Locale.ROOT, "%.2f", buildNs / 1e9),
                        buildCpuNs < 0 ? "-" : String.format(Locale.ROOT, "%.2f", buildCpuNs / 1e9),
                        String.format(Locale.ROOT, "%.2f", prepareNs / 1e9),
                        String.format(Locale.ROOT, "%.2f", r.run().wallNanos() / 1e9),
                        engineCpuEnd[0] < 0 ? "-" : String.format(Locale.ROOT, "%.2f", (engineCpuEnd[0] - c0) / 1e9),
                        engineWallEnd[0] < 0 ? "-" : String.format(Locale.ROOT, "%.2f", (runEnd - engineWallEnd[0]) / 1e9),
                        String.format(Locale.ROOT, "%.3f", a.stepPs() / 1e9),
                        String.format(Locale.ROOT, "%,.0f", a.tokensPerSecond()), peak >> 20);
                table.row(row.toArray());
                out.print("  " + String.join("  ", row.stream().map(String::valueOf).toList()) + "\n");
                out.flush();
            }
        }
        out.print(table);
        out.flush();
        return ExitCode.OK;
    }
}
