package io.fabriclab.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import io.fabriclab.counters.Comparison;
import io.fabriclab.counters.CounterSample;
import io.fabriclab.counters.CounterFindings;
import io.fabriclab.counters.CountersImport;
import io.fabriclab.counters.Measured;
import io.fabriclab.counters.PortFigures;
import io.fabriclab.counters.PortMap;
import io.fabriclab.counters.Scraper;
import io.fabriclab.counters.SimulatedFigures;
import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.FabricReader;
import io.fabriclab.io.ResultsFile;
import io.fabriclab.io.Scenario;
import io.fabriclab.io.ScenarioException;
import io.fabriclab.io.ScenarioJson;
import io.fabriclab.model.Fabric;
import io.fabriclab.sim.SimResults;
import io.fabriclab.sim.Engine;
import io.fabriclab.sim.SimRun;
import io.fabriclab.topology.Finding;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab counters FABRIC COUNTERS... [--map M] [--scenario S | --results R]}: measured
 * counters (docs/counters.md) mapped onto the fabric's ports, as rates; beside the simulated ones
 * when a scenario (simulated here, as {@code simulate} runs it) or a results file is given; the
 * largest differences flagged; findings from the counters.
 */
@Command(name = "counters", mixinStandardHelpOptions = true,
        description = {"Read measured counters (Prometheus text, SONiC show pfc/queue counters and watermarks, portstat -j,",
                "ethtool -S, hw_counters) onto the fabric's ports; print per port the measured PFC, ECN, CNP and drop rates,",
                "beside the simulated ones with --scenario or --results, flag the largest differences, list findings."},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  read and compared; no error-level finding",
                "  1  a finding at error level (drops on a lossless class)",
                "  2  bad input (a counters file, the port map, the fabric, the scenario); nothing is printed but the errors"})
public final class CountersCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FABRIC", description = "fabric file the counters are about")
    Path fabricFile;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "COUNTERS",
            description = "[DEVICE[:IFACE]=]FILE: counters files (or hw_counters directories), two or more samples of each "
                    + "for rates; DEVICE defaults to the file name up to its first dot. Or an http(s) URL of a Prometheus "
                    + "endpoint: scraped twice, --interval seconds apart (default 5)")
    List<String> counters = new ArrayList<>();

    @Option(names = "--map", paramLabel = "FILE", description = "port map (JSON): the counters' device and interface names onto the fabric's")
    Path map;

    @Option(names = "--scenario", paramLabel = "S", description = "scenario to simulate (as `fabriclab simulate S` does) for the simulated figures")
    Path scenario;

    @Option(names = "--results", paramLabel = "R", description = "results file of a finished run (fabriclab simulate -o) for the simulated figures")
    Path results;

    @Option(names = "--interval", paramLabel = "SECONDS", description = "seconds between consecutive samples of files that carry no time "
            + "(no Prometheus timestamp, no \"# time:\" line; default: the files' modification times), and between a URL's two scrapes (default 5)")
    Double interval;

    @Option(names = "--imbalance", paramLabel = "FRACTION", description = "ECMP imbalance bound: the busiest uplink this far above "
            + "the mean of its switch's uplinks is flagged (default 0.25)")
    double imbalance = CounterFindings.DEFAULT_IMBALANCE;

    @Option(names = "--quiet", description = "no progress while simulating")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (scenario != null && results != null) {
            throw new BadInputException("--scenario and --results both give the simulated figures: give one");
        }
        if (interval != null && !(interval > 0 && interval < 1e7)) {
            throw new BadInputException("--interval " + interval + ": seconds between samples, above 0");
        }
        if (!(imbalance > 0 && imbalance < 100)) {
            throw new BadInputException("--imbalance " + imbalance + ": a fraction above 0 (0.25 is 25 %)");
        }
        Fabric fabric = FabricFiles.load(fabricFile);
        List<String> files = counters.stream().filter(c -> !isUrl(c)).toList();
        List<CounterSample> scraped = new ArrayList<>();
        for (String url : counters.stream().filter(CountersCommand::isUrl).toList()) {
            scraped.addAll(scrapeTwice(url, fabric, err));
        }
        // A scrape's samples carry their own time: --interval is the wait between them, not a file's interval.
        Measured m = CountersImport.read(fabric, map, files, files.isEmpty() ? null : interval, scraped);
        Map<String, PortFigures> sim = null;
        String simName = null;
        if (scenario != null) {
            Scenario sc;
            try {
                sc = ScenarioJson.read(scenario, FabricReader.FILES);
            } catch (ScenarioException | IllegalArgumentException e) {
                throw new BadInputException(e.getMessage());
            }
            sc.warnings().forEach(w -> err.println("warning: " + w.render()));
            SimRun s;
            try {
                s = sc.run(sc.config(), Engine.PACKET); // as `fabriclab simulate S` runs it (its default engine)
            } catch (IllegalArgumentException e) {
                throw new BadInputException(scenario + ": " + e.getMessage());
            }
            SimulateCommand.ProgressBar bar = quiet ? null : new SimulateCommand.ProgressBar(err, sc.config().durationPs() > 0);
            SimResults r = s.run(bar);
            if (bar != null) {
                bar.finish();
            }
            sim = SimulatedFigures.of(r);
            simName = "scenario " + sc.name();
        } else if (results != null) {
            ResultsFile.Loaded l = ResultsFile.read(results);
            sim = SimulatedFigures.of(l.results());
            simName = "results " + results;
        }
        Comparison c = Comparison.of(fabric, m, sim);
        List<Finding> findings = CounterFindings.of(fabric, m, sim, imbalance);
        out.print(text(fabric, m, c, findings, simName));
        out.flush();
        return findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR) ? ExitCode.FINDINGS : ExitCode.OK;
    }

    static boolean isUrl(String spec) {
        String l = spec.toLowerCase(Locale.ROOT);
        return l.startsWith("http://") || l.startsWith("https://");
    }

    /** Two scrapes of a Prometheus endpoint, --interval seconds apart (default 5); a failed one is bad input naming the URL. */
    private List<CounterSample> scrapeTwice(String url, Fabric fabric, PrintWriter err) throws InterruptedException {
        List<CounterSample> got = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Duration wait = Duration.ofMillis(Math.round((interval == null ? Scraper.DEFAULT_INTERVAL.toMillis() / 1000.0 : interval) * 1000));
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(url + ": not a URL (" + e.getMessage() + ")");
        }
        try (Scraper s = new Scraper(uri, wait, Scraper.DEFAULT_TIMEOUT, fabric, PortMap.NONE, new Scraper.Listener() {
            @Override
            public void sampled(CounterSample sample, Measured rates, int scrapes) {
                got.add(sample);
            }

            @Override
            public void failed(String message, int failures) {
                failed.add(message);
            }
        })) {
            if (!quiet) {
                err.printf(Locale.ROOT, "scraping %s twice, %.1f s apart%n", url, wait.toMillis() / 1000.0);
                err.flush();
            }
            if (s.scrapeOnce()) {
                Thread.sleep(wait.toMillis());
                s.scrapeOnce();
            }
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        if (!failed.isEmpty()) {
            throw new BadInputException(failed.get(0));
        }
        return got;
    }

    /** The command's report: what was read, what did not map, the table, the differences, the findings. */
    static String text(Fabric fabric, Measured m, Comparison c, List<Finding> findings, String simName) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "counters: %d samples, %d ports of %s measured, over %.1f s, %d counter reset%s%n",
                m.samples(), m.ports().size(), fabric.name(), m.intervalS(), m.resets(), m.resets() == 1 ? "" : "s"));
        m.notes().forEach(n -> sb.append("note: ").append(n).append('\n'));
        if (!m.unmapped().isEmpty()) {
            sb.append("not mapped to a port (").append(m.unmapped().size()).append("):\n");
            m.unmapped().forEach(u -> sb.append("  ").append(u).append('\n'));
        }
        if (!m.unknown().isEmpty()) {
            sb.append("names not read (").append(m.unknown().size()).append("): ");
            sb.append(String.join(", ", m.unknown().stream().limit(12).toList()));
            sb.append(m.unknown().size() > 12 ? " and " + (m.unknown().size() - 12) + " more" : "").append('\n');
        }
        sb.append('\n').append(simName == null ? "measured, per second:\n" : "measured / simulated (" + simName + "), per second:\n");
        sb.append(c.table());
        if (simName != null) {
            sb.append('\n');
            if (c.flagged().isEmpty()) {
                sb.append("largest differences: none above ").append(Comparison.FLAG_SCORE).append('\n');
            } else {
                sb.append("largest differences:\n");
                c.flaggedLines().forEach(l -> sb.append("  ").append(l).append('\n'));
            }
        }
        sb.append('\n');
        if (findings.isEmpty()) {
            sb.append("findings: none\n");
        } else {
            sb.append("findings (").append(findings.size()).append("):\n");
            findings.forEach(f -> sb.append("  ").append(f).append('\n'));
        }
        return sb.toString();
    }
}
