package io.fabriclab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.fabriclab.model.Fabric;
import io.fabriclab.topology.FabricAnalysis;

import picocli.CommandLine.Option;

/** The static-analysis options `analyze` and `report` share (a picocli mixin), and the options they make. */
final class AnalysisOptions {
    @Option(names = "--fail", paramLabel = "LINK|DEVICE",
            description = "Analyse with this link or device failed too (repeatable): path counts, hops and deadlock after the failure.")
    List<String> fail = new ArrayList<>();

    @Option(names = "--price-book", paramLabel = "FILE", description = "Unit prices (default: the shipped sample price book).")
    Path priceBook;

    @Option(names = "--no-failure-sweep", description = "Skip the failure impact of every single link and switch.")
    boolean noSweep;

    /** The analysis options for this fabric; a --fail naming nothing in it is bad input. */
    FabricAnalysis.Options toOptions(Fabric fabric) throws IOException {
        FabricAnalysis.Options opt = FabricAnalysis.Options.defaults(Inputs.priceBook(priceBook));
        if (!fail.isEmpty()) {
            Inputs.Failure f = new Inputs.Failure(fabric, fail);
            opt = opt.withFailure(f.spec, f.devices, f.links);
        }
        return noSweep ? opt.withoutFailureSweep() : opt;
    }
}
