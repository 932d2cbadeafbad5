package io.fabriclab.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.fabriclab.io.PriceBookFile;
import io.fabriclab.model.Fabric;
import io.fabriclab.report.DesignReview;
import io.fabriclab.report.HtmlReport;
import io.fabriclab.report.PdfReport;
import io.fabriclab.report.ReportInput;
import io.fabriclab.topology.FabricAnalysis;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabriclab bench report`: the design-review report of a generated rail-optimized fabric (64
 * scalable units = 16,384 GPUs by default), timed per phase: the review (every analysis, the
 * deadlock check under failures), the HTML, the PDF. CPU time of the working thread and of the whole
 * JVM (the failure sweep runs in parallel) are the fair figures on a shared machine.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Time the design-review report (HTML and PDF) of a generated rail-optimized fabric.")
final class ReportBenchCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--units", defaultValue = "64", description = "Scalable units of 256 GPUs (default: ${DEFAULT-VALUE}).")
    int units;

    @Option(names = "--runs", defaultValue = "2", description = "Runs; the first one is cold (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--keep", paramLabel = "DIR", description = "Write the last run's report.html and report.pdf into DIR.")
    Path keep;

    /** CPU time of every thread of this JVM (-1 where the platform does not tell). */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.printf(Locale.ROOT, "bench report: %d units, %d runs, %d cores, max heap %d MB, load average %.1f%n", units, runs,
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Fabric fabric = BenchCommand.railFabric(units);
        for (int r = 1; r <= runs; r++) {
            ReportInput in = new ReportInput(fabric, "generated: rail " + units + " units", null, null, null,
                    FabricAnalysis.Options.defaults(PriceBookFile.sample()), List.of(), "bench", LocalDate.now(),
                    "fabriclab bench report --units " + units);
            long p0 = processCpuNanos();
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            DesignReview review = DesignReview.build(in, DesignReview.Progress.NONE);
            long c1 = threads.getCurrentThreadCpuTime();
            long t1 = System.nanoTime();
            String html = HtmlReport.render(review);
            long c2 = threads.getCurrentThreadCpuTime();
            long t2 = System.nanoTime();
            byte[] pdf = PdfReport.render(html);
            long c3 = threads.getCurrentThreadCpuTime();
            long t3 = System.nanoTime();
            long p3 = processCpuNanos();
            out.printf(Locale.ROOT, "run %d%s: %,d GPUs, %,d links; review %.1f s (CPU %.1f s), HTML %.1f s (CPU %.1f s, %,d KB), "
                            + "PDF %.1f s (CPU %.1f s, %,d KB); HTML+PDF from the fabric %.1f s wall, %.1f s CPU (working thread), "
                            + "%.1f s CPU (whole JVM: parallel failure sweep, GC, JIT)%n",
                    r, r == 1 ? " (cold)" : "", review.analysis().counts().gpus(), review.analysis().counts().links(),
                    (t1 - t0) / 1e9, (c1 - c0) / 1e9, (t2 - t1) / 1e9, (c2 - c1) / 1e9, html.length() / 1024,
                    (t3 - t2) / 1e9, (c3 - c2) / 1e9, pdf.length / 1024, (t3 - t0) / 1e9, (c3 - c0) / 1e9, (p3 - p0) / 1e9);
            out.flush();
            if (keep != null && r == runs) {
                Files.createDirectories(keep);
                io.fabriclab.io.AtomicFiles.write(keep.resolve("report.html"), html.getBytes(StandardCharsets.UTF_8));
                io.fabriclab.io.AtomicFiles.write(keep.resolve("report.pdf"), pdf);
            }
        }
        return ExitCode.OK;
    }
}
