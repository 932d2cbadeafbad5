package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.SchedulerConfig;
import io.fabriclab.model.WredEcn;

/** SIMULATION.md: a simulator that sends a CNP with every marked packet misses PFC pauses the hardware shows. */
class CnpPacingTest {

    static SimResults run(double cnpIntervalUs) {
        DcqcnConfig fw = DcqcnConfig.nicFirmware();
        DcqcnConfig d = new DcqcnConfig(true, cnpIntervalUs, fw.alphaTimerUs(), fw.rateIncreaseTimerUs(),
                fw.byteCounterBytes(), fw.fastRecoverySteps(), fw.g(), fw.rateAiMbps(), fw.rateHaiMbps(),
                fw.initialAlpha(), fw.minRateMbps(), 0, fw.maxCutFraction());
        PfcConfig pfc = new PfcConfig(true, Set.of(3), 200_000, 150_000, 100_000, 0, PfcConfig.WatchdogAction.DROP);
        EcnConfig ecn = new EcnConfig(true, Map.of(3, SimProfiles.productionCurve(100)), EcnConfig.MarkingPoint.DEQUEUE);
        BufferConfig buf = new BufferConfig(64L << 20, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        Fabric f = TestFabrics.star(9, 100, 1.0, new QosProfile("q", "", pfc, ecn, d, buf, SchedulerConfig.defaults()));
        return new Simulator(f, IncastTest.incast(8, 4_000_000), SimConfig.defaults()).run();
    }

    @Test
    void rateLimitedCnpsLetPfcPauseWhereACnpPerMarkedPacketWouldHideIt() {
        // 8:1 incast, production ECN (Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 at 100G), PFC XOFF 200 KB
        // per ingress, firmware DCQCN without a cut interval. With one CNP per QP per 50 us the
        // senders react to at most one mark per 50 us and the ingress queues reach XOFF; with a CNP
        // for every marked packet (interval 0) they are cut far harder and far earlier.
        SimResults paced = run(50);
        SimResults everyMark = run(0);
        System.out.printf("CNP every 50 us: %d CNPs, %d pauses; CNP per mark: %d CNPs, %d pauses%n",
                paced.summary().cnpsSent(), paced.summary().pauseFramesSent(), everyMark.summary().cnpsSent(),
                everyMark.summary().pauseFramesSent());
        // (Cut harder, the per-mark senders end up with fewer marks and even fewer CNPs in total.)
        assertTrue(paced.summary().pauseFramesSent() > everyMark.summary().pauseFramesSent(),
                "pauses paced " + paced.summary().pauseFramesSent() + " vs per mark " + everyMark.summary().pauseFramesSent());
    }
}
