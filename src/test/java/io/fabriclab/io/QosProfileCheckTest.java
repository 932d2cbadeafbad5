package io.fabriclab.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

/** The editor's check of a profile: the fabric reader's rules, plus XOFF + headroom within the buffer. */
class QosProfileCheckTest {

    @Test
    void theShippedProfilesAreValid() {
        assertEquals(List.of(), QosProfileCheck.problems(QosProfile.roceLossless("rdma", 400)));
        assertEquals(List.of(), QosProfileCheck.problems(QosProfile.bestEffort("lossy")));
    }

    @Test
    void kminAtOrAboveKmaxIsRejectedAtItsPathAsTheReaderDoes() {
        QosProfile p = QosProfile.roceLossless("rdma", 400);
        QosProfile equal = p.withEcn(p.ecn().withClass(3, new WredEcn(800_000, 800_000, 0.2)));
        List<InputProblem> problems = QosProfileCheck.problems(equal);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals("$.qosProfiles.rdma.ecn.classes['3'].kminBytes", problems.get(0).jsonPath());
        assertTrue(problems.get(0).message().contains("must be below Kmax"), problems.get(0).message());
        assertEquals(1, QosProfileCheck.problems(p.withEcn(p.ecn().withClass(3, new WredEcn(900_000, 800_000, 0.2)))).size());
        // The reader's ranges: pmax in (0, 1].
        assertEquals("$.qosProfiles.rdma.ecn.classes['3'].pmax", QosProfileCheck.problems(
                p.withEcn(p.ecn().withClass(3, new WredEcn(100, 800_000, 1.5)))).get(0).jsonPath());
    }

    @Test
    void xoffPlusHeadroomOverTheBufferIsRejected() {
        QosProfile p = QosProfile.roceLossless("rdma", 400);
        // One lossless priority (3): XOFF 1,000,000 B + headroom 320,000 B = 1,320,000 B.
        QosProfile fits = p.withBuffer(new BufferConfig(1_320_000, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0));
        assertEquals(List.of(), QosProfileCheck.problems(fits));
        QosProfile over = p.withBuffer(new BufferConfig(1_319_999, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0));
        List<InputProblem> problems = QosProfileCheck.problems(over);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals("$.qosProfiles.rdma.pfc.headroomBytes", problems.get(0).jsonPath());
        assertTrue(problems.get(0).message().contains("1320000 B do not fit in the 1319999 B buffer"),
                problems.get(0).message());
    }
}
