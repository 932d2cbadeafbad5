package io.fabriclab.io;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;

/**
 * Checks a QoS profile being edited with the fabric reader's own rules, so the editor accepts exactly
 * what a fabric file may hold: the profile is written as the file would hold it and read back by
 * {@link FabricJsonReader} (same ranges, Kmin below Kmax, XON below XOFF, ...). On top, one rule the
 * editor checks as you type: on a port, every lossless priority group fills to XOFF and then its
 * headroom, so priorities x (XOFF + headroom) must fit in the switch's shared buffer.
 */
public final class QosProfileCheck {
    private static final ObjectMapper WRITER = JsonInput.writingMapper();

    private QosProfileCheck() {
    }

    /** The JSON path of a profile in a fabric file, under which {@link #problems} places each problem. */
    public static String path(String profileName) {
        return JsonPaths.field("$.qosProfiles", profileName);
    }

    /** Every problem of the profile, each with its JSON path as a fabric file would place it; empty when valid. */
    public static List<InputProblem> problems(QosProfile p) {
        String path = path(p.name());
        Problems problems = new Problems("QoS profile '" + p.name() + "'");
        try {
            JsonNode node = JsonInput.jsonMapper().readTree(WRITER.writeValueAsString(FabricJson.profileTree(p)));
            new FabricJsonReader(problems).readProfile(p.name(), node, path);
        } catch (JsonProcessingException e) {
            // The tree is FabricJson's own output; failing to read it back would be a bug, not bad input.
            throw new IllegalStateException(e);
        }
        List<InputProblem> out = new ArrayList<>(problems.list());
        PfcConfig pfc = p.pfc();
        BufferConfig buffer = p.buffer();
        if (pfc != null && pfc.enabled() && buffer != null && !pfc.priorities().isEmpty()) {
            int n = pfc.priorities().size();
            long need = n * (pfc.xoffBytes() + pfc.headroomBytes());
            if (need > buffer.poolBytes()) {
                out.add(new InputProblem(problems.file(), JsonPaths.field(JsonPaths.field(path, "pfc"), "headroomBytes"),
                        Long.toString(pfc.headroomBytes()),
                        n + " lossless priorities x (XOFF " + pfc.xoffBytes() + " B + headroom " + pfc.headroomBytes()
                                + " B) = " + need + " B do not fit in the " + buffer.poolBytes() + " B buffer",
                        "XOFF + headroom at most " + buffer.poolBytes() / n + " B per lossless priority"));
            }
        }
        return out;
    }
}
