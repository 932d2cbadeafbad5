package io.fabriclab.io.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.fabriclab.io.AtomicFiles;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;

/**
 * Writes the QoS configuration of a fabric's switches, one file per switch and vendor
 * ({@code <switch>.config_db.json}, {@code <switch>.eos.cfg}, {@code <switch>.nxos.cfg}). Every
 * switch is rendered before anything is written, so a design value a vendor cannot express leaves
 * the directory untouched; each file is written through {@link AtomicFiles}, readable by its owner only.
 */
public final class ConfigExporter {
    private final int sonicLanesPerPort;
    private final SonicAsic sonicAsic;

    /** How a SONiC fragment goes onto a switch: said by the export (CLI, app) and docs/config-export.md. */
    public static final String SONIC_APPLY = "apply each SONiC file with 'sudo config load FILE -y' (it merges into "
            + "the running CONFIG_DB; then 'sudo config save -y'), or merge it into /etc/sonic/config_db.json and run "
            + "'sudo config reload'. Never 'config override-config-table' nor 'config reload FILE' with the fragment "
            + "alone: its PORT rows carry no 'lanes' and would replace the platform's ports";

    public ConfigExporter() {
        this(SonicConfigDb.DEFAULT_LANES_PER_PORT);
    }

    /** @param sonicLanesPerPort SerDes lanes per port of the SONiC platform (8 for 64x400G/800G, 4 for 32x100G) */
    public ConfigExporter(int sonicLanesPerPort) {
        this(sonicLanesPerPort, SonicAsic.BROADCOM);
    }

    /** @param sonicAsic the SONiC switch's ASIC family (what its lossless buffer profile fields mean) */
    public ConfigExporter(int sonicLanesPerPort, SonicAsic sonicAsic) {
        this.sonicLanesPerPort = sonicLanesPerPort;
        this.sonicAsic = Objects.requireNonNull(sonicAsic, "sonicAsic");
        format(Vendor.SONIC); // validates the lane count now
    }

    public SwitchConfigFormat format(Vendor vendor) {
        return switch (Objects.requireNonNull(vendor, "vendor")) {
            case SONIC -> new SonicConfigDb(sonicLanesPerPort, sonicAsic);
            case EOS -> new EosConfig();
            case NXOS -> new NxosConfig();
        };
    }

    /** One switch's configuration as text. */
    public String render(Fabric fabric, Device device, Vendor vendor) {
        return format(vendor).render(fabric, device);
    }

    /** The file a switch's configuration goes to in {@code dir}. */
    public static Path fileFor(Path dir, Device device, Vendor vendor) {
        return dir.resolve(device.id() + vendor.fileSuffix());
    }

    /** Exports every switch of the fabric; returns the files written, in switch order. */
    public List<Path> exportAll(Fabric fabric, Path dir, Vendor vendor) throws IOException {
        return export(fabric, fabric.switches(), dir, vendor);
    }

    /** Exports the given switches; returns the files written, in the order given. */
    public List<Path> export(Fabric fabric, Collection<Device> switches, Path dir, Vendor vendor) throws IOException {
        SwitchConfigFormat format = format(vendor);
        Map<Path, String> rendered = new LinkedHashMap<>();
        for (Device d : switches) {
            String name = d.id();
            if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..")) {
                throw new UnexportableQosException("switch id \"" + name + "\" cannot be a file name");
            }
            rendered.put(fileFor(dir, d, vendor), format.render(fabric, d));
        }
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (Map.Entry<Path, String> e : rendered.entrySet()) {
            writeAtomically(e.getKey(), e.getValue());
            written.add(e.getKey());
        }
        return written;
    }

    /** Writes one configuration owner-only (0600: it names the switch's QoS), atomically. */
    static void writeAtomically(Path target, String text) throws IOException {
        AtomicFiles.write(target, text.getBytes(StandardCharsets.UTF_8), AtomicFiles.Option.OWNER_ONLY);
    }
}
