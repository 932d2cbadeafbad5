package io.fabriclab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.fabriclab.io.config.ConfigExporter;
import io.fabriclab.io.config.UnexportableQosException;
import io.fabriclab.io.config.Vendor;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabriclab export-config FABRIC --vendor sonic|eos|nxos [--switch NAME] -o DIR}: writes the
 * QoS configuration the fabric was designed with, one file per switch.
 */
@Command(name = "export-config", mixinStandardHelpOptions = true,
        description = "Write each switch's QoS configuration (PFC, ECN/WRED, buffers, scheduling, PFC watchdog) "
                + "for SONiC (config_db.json), Arista EOS or Cisco NX-OS, one file per switch.",
        footerHeading = "%nExit codes:%n",
        footer = {"  0  ok", "  2  bad input (unreadable fabric, unknown switch or vendor, a design value the vendor "
                + "cannot express, an output that is the input or cannot be written); nothing was written"})
public final class ExportConfigCommand implements Callable<Integer> {
    static final int OK = 0;
    static final int BAD_INPUT = 2;

    /**
     * Reads a fabric file. A checked exception (unreadable file, invalid content) or an
     * IllegalArgumentException from the model is the user's bad input; anything else is a bug.
     */
    @FunctionalInterface
    public interface FabricLoader {
        Fabric load(Path file) throws Exception;
    }

    /** The loader of every fabric file format FabricLab reads. */
    static final FabricLoader FABRIC_FILES = io.fabriclab.io.FabricFiles::load;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FABRIC", description = "The fabric file.")
    Path fabricFile;

    @Option(names = "--vendor", required = true, paramLabel = "sonic|eos|nxos", converter = VendorConverter.class,
            description = "Switch operating system: sonic (config_db.json), eos (Arista), nxos (Cisco Nexus 9000).")
    Vendor vendor;

    @Option(names = "--switch", paramLabel = "NAME",
            description = "Export only this switch (repeatable); default: every switch.")
    List<String> switches = new ArrayList<>();

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR",
            description = "Directory for the files (<switch>.config_db.json, <switch>.eos.cfg, <switch>.nxos.cfg).")
    Path outputDir;

    @Option(names = "--sonic-lanes-per-port", paramLabel = "N", defaultValue = "8",
            description = "SerDes lanes per SONiC port: ethN becomes Ethernet((N-1)*lanes) (default: ${DEFAULT-VALUE}).")
    int sonicLanesPerPort;

    @Option(names = "--sonic-asic", paramLabel = "broadcom|mellanox", defaultValue = "broadcom",
            description = "ASIC family of the SONiC switches: what the lossless buffer profile's xon, xon_offset and "
                    + "size mean there (docs/config-export.md; default: ${DEFAULT-VALUE}).")
    String sonicAsic;

    private final FabricLoader loader;

    public ExportConfigCommand() {
        this(FABRIC_FILES);
    }

    public ExportConfigCommand(FabricLoader loader) {
        this.loader = loader;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        try {
            if (sonicLanesPerPort < 1 || sonicLanesPerPort > 8) {
                throw new UnexportableQosException("--sonic-lanes-per-port must be 1-8, not " + sonicLanesPerPort);
            }
            Fabric fabric;
            try {
                fabric = loader.load(fabricFile);
            } catch (RuntimeException e) {
                if (!(e instanceof IllegalArgumentException)) {
                    throw e;
                }
                return loadFailed(err, e);
            } catch (Exception e) {
                return loadFailed(err, e);
            }
            List<Device> chosen = new ArrayList<>();
            if (switches.isEmpty()) {
                chosen.addAll(fabric.switches());
            } else {
                for (String name : switches) {
                    Device d = fabric.device(name);
                    if (d == null || !d.role().isSwitch()) {
                        throw new UnexportableQosException((d == null ? "no device named " : "not a switch: ") + name
                                + " (switches: " + String.join(", ", fabric.switches().stream().map(Device::id).toList()) + ")");
                    }
                    chosen.add(d);
                }
            }
            if (chosen.isEmpty()) {
                throw new UnexportableQosException(fabricFile + ": the fabric has no switches");
            }
            new Outputs().input(fabricFile).directory("-o", outputDir,
                    chosen.stream().map(d -> ConfigExporter.fileFor(Path.of(""), d, vendor).toString()).toList()).check();
            io.fabriclab.io.config.SonicAsic asic = io.fabriclab.io.config.SonicAsic.fromName(sonicAsic)
                    .orElseThrow(() -> new UnexportableQosException("--sonic-asic must be one of "
                            + io.fabriclab.io.config.SonicAsic.allowedNames() + ", not " + sonicAsic));
            List<Path> written = new ConfigExporter(sonicLanesPerPort, asic).export(fabric, chosen, outputDir, vendor);
            written.forEach(p -> out.println("wrote " + p));
            if (vendor == io.fabriclab.io.config.Vendor.SONIC) {
                out.println("to " + ConfigExporter.SONIC_APPLY + ".");
            }
            out.flush();
            return OK;
        } catch (UnexportableQosException e) {
            err.println("error: " + e.getMessage());
            return BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot write to " + outputDir + ": " + e.getMessage());
            return BAD_INPUT;
        } finally {
            err.flush();
        }
    }

    private int loadFailed(PrintWriter err, Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        // File readers usually name the file themselves.
        err.println("error: " + (m.contains(fabricFile.toString()) ? m : fabricFile + ": " + m));
        return BAD_INPUT;
    }

    /** Accepts sonic, eos, nxos (any case). */
    static final class VendorConverter implements CommandLine.ITypeConverter<Vendor> {
        @Override
        public Vendor convert(String value) {
            return Vendor.fromName(value).orElseThrow(() -> new CommandLine.TypeConversionException(
                    "unknown vendor '" + value + "' (allowed: " + Vendor.allowedNames() + ")"));
        }
    }
}
