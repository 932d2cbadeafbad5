package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;

/** The example in docs/format.md must be a valid file in exactly the canonical form FabricLab writes. */
class FormatDocTest {

    @Test
    void theCompleteExampleInTheFormatDocIsCanonical() throws Exception {
        String doc = Files.readString(Path.of("docs/format.md"));
        Matcher m = Pattern.compile("### 1\\.7 A complete example\\s+```json\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertTrue(m.find(), "docs/format.md has a section 1.7 with a json block");
        String example = m.group(1);
        Fabric f = FabricJson.read(example, "docs/format.md");
        assertEquals(3, f.devices().size());
        assertEquals(2, f.device("gpu1").gpus(), "two NICs, no gpus field: one GPU per NIC");
        assertEquals(io.fabriclab.model.ScaleUp.of("H100"), f.device("gpu1").scaleUp());
        assertEquals(example, FabricJson.write(f));
    }
}
