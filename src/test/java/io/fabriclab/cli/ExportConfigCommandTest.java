package io.fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.QosProfile;

import picocli.CommandLine;

class ExportConfigCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** leaf1 -- spine1 with one 400G link, QoS roceLossless. */
    private static Fabric fabric() {
        Fabric f = new Fabric("t");
        f.putQosProfile(QosProfile.roceLossless("roce", 400));
        Device leaf = f.addDevice("leaf1", DeviceRole.LEAF);
        leaf.addPorts("eth", 1, 2, 400);
        Device spine = f.addDevice("spine1", DeviceRole.SPINE);
        spine.addPorts("eth", 1, 2, 400);
        f.connect(leaf.port("eth1"), spine.port("eth1"), 400, 10);
        return f;
    }

    private int run(ExportConfigCommand.FabricLoader loader, String... args) {
        CommandLine cl = new CommandLine(new ExportConfigCommand(loader));
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void exportsEverySwitch(@TempDir Path dir) throws IOException {
        int code = run(file -> fabric(), "lab.json", "--vendor", "eos", "-o", dir.toString());
        assertEquals(0, code, err.toString());
        assertEquals(Set.of("leaf1.eos.cfg", "spine1.eos.cfg"), names(dir));
        assertTrue(out.toString().contains("wrote " + dir.resolve("leaf1.eos.cfg")), out.toString());
    }

    @Test
    void exportsOnlyTheNamedSwitch(@TempDir Path dir) throws IOException {
        int code = run(file -> fabric(), "lab.json", "--vendor", "SONiC", "--switch", "spine1", "-o", dir.toString());
        assertEquals(0, code, err.toString());
        assertEquals(Set.of("spine1.config_db.json"), names(dir));
    }

    @Test
    void unknownSwitchIsBadInput(@TempDir Path dir) throws IOException {
        int code = run(file -> fabric(), "lab.json", "--vendor", "nxos", "--switch", "leaf9", "-o", dir.toString());
        assertEquals(2, code);
        assertTrue(err.toString().contains("no device named leaf9"), err.toString());
        assertEquals(Set.of(), names(dir));
    }

    @Test
    void unknownVendorIsBadInput(@TempDir Path dir) {
        int code = run(file -> fabric(), "lab.json", "--vendor", "junos", "-o", dir.toString());
        assertEquals(2, code);
        assertTrue(err.toString().contains("junos"), err.toString());
    }

    @Test
    void unreadableFabricIsBadInput(@TempDir Path dir) {
        int code = run(file -> {
            throw new NoSuchFileException(file.toString());
        }, "missing.json", "--vendor", "eos", "-o", dir.toString());
        assertEquals(2, code);
        assertTrue(err.toString().startsWith("error: missing.json"), err.toString());
    }

    @Test
    void invalidFabricContentIsBadInputNamedOnce(@TempDir Path dir) {
        int code = run(file -> {
            throw new IllegalArgumentException("duplicate device id: leaf1");
        }, "lab.json", "--vendor", "eos", "-o", dir.toString());
        assertEquals(2, code);
        assertEquals("error: lab.json: duplicate device id: leaf1", err.toString().trim());
    }

    @Test
    void designValueTheVendorCannotTakeIsBadInput(@TempDir Path dir) throws IOException {
        int code = run(file -> {
            Fabric f = fabric();
            f.putQosProfile(QosProfile.roceLossless("roce", 400).withBuffer(
                    new BufferConfig(64L << 20, null, 0, 0.75, 0)));
            return f;
        }, "lab.json", "--vendor", "sonic", "-o", dir.toString());
        assertEquals(2, code);
        assertTrue(err.toString().contains("alpha 0.75"), err.toString());
        assertEquals(Set.of(), names(dir));
    }

    @Test
    void missingOutputDirectoryOptionIsBadInput() {
        assertEquals(2, run(file -> fabric(), "lab.json", "--vendor", "eos"));
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
