package io.fabriclab.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fabriclab.io.InputException;
import io.fabriclab.model.Fabric;

/** Bad counters input: clear errors naming the file (and line or entry), nothing half-read. */
class CountersBadInputTest {

    @Test
    void a200MegabyteFileIsRefusedBeforeItIsRead(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("leaf1.huge.prom");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(200L * 1000 * 1000); // sparse: no 200 MB written
        }
        InputException e = assertThrows(InputException.class, () -> CountersFile.of(big.toString()).read());
        assertTrue(e.getMessage().startsWith(big.toString() + ": $: the file is 200.0 MB; counters files are read up to 64 MB"),
                e.getMessage());
    }

    @Test
    void aPortMapNamingPortsThatDoNotExistListsEveryOne(@TempDir Path dir) throws Exception {
        Fabric f = CountersReadersTest.fabric();
        Path map = dir.resolve("map.json");
        Files.writeString(map, """
                {"schemaVersion": 1,
                 "devices": {"sonic-leaf-07": "leaf7"},
                 "ports": {"leaf1:Ethernet0": "leaf1:eth1", "leaf1:Ethernet4": "leaf1:eth99", "leaf1:Ethernet8": "nowhere:eth1"}}
                """);
        InputException e = assertThrows(InputException.class, () -> PortMap.read(map, f));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains(map + ": $.ports[\"leaf1:Ethernet4\"]: names port leaf1:eth99, which"), e.getMessage());
        assertTrue(e.getMessage().contains("$.devices[\"sonic-leaf-07\"]: names device leaf7"), e.getMessage());
    }

    @Test
    void everyFilesProblemsTogetherAndNoPartialResult(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("leaf1.a.txt");
        Files.writeString(good, "  Port Tx  PFC3\n---------  ----\neth1  1000\n");
        Path bad = dir.resolve("leaf2.b.txt");
        Files.writeString(bad, "  Port Tx  PFC3\n---------  ----\neth1  lots\n");
        Path missing = dir.resolve("leaf3.c.txt");
        InputException e = assertThrows(InputException.class, () -> CountersImport.read(CountersReadersTest.fabric(), null,
                List.of(good.toString(), bad.toString(), missing.toString()), null));
        assertTrue(e.getMessage().contains(bad + ": line 3: column PFC3 of eth1 is not a counter value"), e.getMessage());
        assertTrue(e.getMessage().contains(missing + ": $: no such file"), e.getMessage());
        assertTrue(Files.readString(good).contains("1000"), "inputs are never written");
    }

    @Test
    void emptyAndBinaryFiles(@TempDir Path dir) throws Exception {
        Path empty = dir.resolve("leaf1.empty.txt");
        Files.writeString(empty, "\n\n");
        assertTrue(assertThrows(InputException.class, () -> CountersFile.of(empty.toString()).read()).getMessage()
                .contains("the file is empty"));
        Path bin = dir.resolve("leaf1.bin");
        Files.write(bin, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2});
        assertTrue(assertThrows(InputException.class, () -> CountersFile.of(bin.toString()).read()).getMessage()
                .contains("not UTF-8 text"));
    }
}
