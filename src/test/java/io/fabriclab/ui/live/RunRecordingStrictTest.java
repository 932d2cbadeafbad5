package io.fabriclab.ui.live;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saved runs are parsed by the strict reader of every FabricLab file (io.JsonInput). */
class RunRecordingStrictTest {

    @Test
    void duplicateKeysInASavedRunAreRefused(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("dup" + RunRecording.EXTENSION);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(run))) {
            out.write("{\"schemaVersion\": 2, \"kind\": \"fabriclab-run\", \"kind\": \"other\"}"
                    .getBytes(StandardCharsets.UTF_8));
        }
        IOException e = assertThrows(IOException.class, () -> RunRecording.load(run));
        assertTrue(e.getMessage().contains("Duplicate field 'kind'"), e.getMessage());
    }
}
