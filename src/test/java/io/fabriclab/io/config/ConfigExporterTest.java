package io.fabriclab.io.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;

class ConfigExporterTest {

    @Test
    void writesOneFilePerSwitchNamedForTheVendor(@TempDir Path dir) throws IOException {
        Fabric f = ExportFixtures.lab();
        ConfigExporter exporter = new ConfigExporter();
        for (Vendor v : Vendor.values()) {
            List<Path> files = exporter.exportAll(f, dir, v);
            // Switches in insertion order: spine1, leaf1, leaf2; servers get nothing.
            assertEquals(List.of(dir.resolve("spine1" + v.fileSuffix()), dir.resolve("leaf1" + v.fileSuffix()),
                    dir.resolve("leaf2" + v.fileSuffix())), files);
            assertEquals(exporter.render(f, f.device("leaf1"), v), Files.readString(dir.resolve("leaf1" + v.fileSuffix())));
        }
        assertEquals(Set.of("spine1.config_db.json", "leaf1.config_db.json", "leaf2.config_db.json",
                "spine1.eos.cfg", "leaf1.eos.cfg", "leaf2.eos.cfg", "spine1.nxos.cfg", "leaf1.nxos.cfg", "leaf2.nxos.cfg"),
                names(dir));
    }

    @Test
    void aSwitchThatCannotBeExportedLeavesTheDirectoryUntouched(@TempDir Path dir) throws IOException {
        Fabric f = ExportFixtures.lab();
        // leaf2 alone gets a 205 ms watchdog, which EOS (10 ms steps) cannot take.
        f.putQosProfile(QosProfile.roceLossless("odd", 400)
                .withPfc(new PfcConfig(true, Set.of(3), 1_000_000, 800_000, 200_000, 205_000, null)));
        f.device("leaf2").setQosProfile("odd");
        assertThrows(UnexportableQosException.class, () -> new ConfigExporter().exportAll(f, dir, Vendor.EOS));
        assertEquals(Set.of(), names(dir));
    }

    @Test
    void overwritesAnEarlierExportAndLeavesNoTemporaryFiles(@TempDir Path dir) throws IOException {
        Fabric f = ExportFixtures.lab();
        Files.writeString(dir.resolve("leaf1.eos.cfg"), "stale");
        new ConfigExporter().export(f, List.of(f.device("leaf1")), dir, Vendor.EOS);
        assertEquals(Set.of("leaf1.eos.cfg"), names(dir));
        assertEquals(new EosConfig().render(f, f.device("leaf1")), Files.readString(dir.resolve("leaf1.eos.cfg")));
    }

    @Test
    void switchWithoutAnyProfileIsRefused() {
        Fabric f = ExportFixtures.lab();
        f.removeQosProfile("roce");
        UnexportableQosException e = assertThrows(UnexportableQosException.class,
                () -> new ConfigExporter().render(f, f.device("leaf1"), Vendor.SONIC));
        assertEquals("switch leaf1 has no QoS profile (set one on the device or a fabric default)", e.getMessage());
    }

    @Test
    void serversAreNotSwitches() {
        Fabric f = ExportFixtures.lab();
        assertThrows(IllegalArgumentException.class, () -> new ConfigExporter().render(f, f.device("srv1"), Vendor.EOS));
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
