package io.fabriclab.model;

import java.util.Map;
import java.util.Set;

/**
 * A named QoS configuration shared by devices and ports: PFC, ECN/WRED, DCQCN, buffer and
 * scheduler. Immutable: editing a profile replaces it in the fabric.
 */
public record QosProfile(String name, String description, PfcConfig pfc, EcnConfig ecn, DcqcnConfig dcqcn,
                         BufferConfig buffer, SchedulerConfig scheduler) {

    /** The RDMA priority used across the field (and by every shipped example). */
    public static final int RDMA_PRIORITY = 3;
    /** The priority CNPs travel on. */
    public static final int CNP_PRIORITY = 6;

    public QosProfile withName(String newName) {
        return new QosProfile(newName, description, pfc, ecn, dcqcn, buffer, scheduler);
    }

    public QosProfile withPfc(PfcConfig p) {
        return new QosProfile(name, description, p, ecn, dcqcn, buffer, scheduler);
    }

    public QosProfile withEcn(EcnConfig e) {
        return new QosProfile(name, description, pfc, e, dcqcn, buffer, scheduler);
    }

    public QosProfile withDcqcn(DcqcnConfig d) {
        return new QosProfile(name, description, pfc, ecn, d, buffer, scheduler);
    }

    public QosProfile withBuffer(BufferConfig b) {
        return new QosProfile(name, description, pfc, ecn, dcqcn, b, scheduler);
    }

    /**
     * A lossless RoCEv2 profile as production fabrics run it: PFC and ECN on priority 3, DCQCN with
     * NIC firmware parameters, ECN thresholds scaled to the port speed (Alibaba's production
     * values: 100G Kmin 400 KB / Kmax 1600 KB / Pmax 0.2, doubling per speed step up to 400G
     * 800 KB / 3200 KB), a 64 MB dynamic-threshold shared buffer (alpha 1).
     */
    public static QosProfile roceLossless(String name, int portSpeedGbps) {
        long kmin;
        long kmax;
        if (portSpeedGbps <= 100) {
            kmin = 400_000;
            kmax = 1_600_000;
        } else if (portSpeedGbps <= 200) {
            kmin = 600_000;
            kmax = 2_400_000;
        } else {
            kmin = 800_000;
            kmax = 3_200_000;
        }
        PfcConfig pfc = new PfcConfig(true, Set.of(RDMA_PRIORITY), 1_000_000, 800_000, headroomFor(portSpeedGbps), 200_000,
                PfcConfig.WatchdogAction.DROP);
        EcnConfig ecn = new EcnConfig(true, Map.of(RDMA_PRIORITY, new WredEcn(kmin, kmax, 0.2)),
                EcnConfig.MarkingPoint.DEQUEUE);
        BufferConfig buffer = new BufferConfig(64L * 1024 * 1024, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        return new QosProfile(name, "RoCEv2 lossless on priority 3 (PFC + ECN + DCQCN)", pfc, ecn,
                DcqcnConfig.nicFirmware(), buffer, SchedulerConfig.defaults());
    }

    /**
     * Default PFC headroom per (port, lossless priority): at least what topology.HeadroomCalculator
     * needs at this speed for cables up to about 300 m at 100G and 150 m at 400G (the generators'
     * longest runs); e.g. 400G over 30 m needs 83,083 B, over 150 m 143,083 B (MTU 4,200 B). The
     * 200G-and-up figures leave a wide margin (docs/model.md, defaults).
     */
    static long headroomFor(int portSpeedGbps) {
        if (portSpeedGbps <= 100) {
            return 120_000;
        }
        if (portSpeedGbps <= 200) {
            return 200_000;
        }
        if (portSpeedGbps <= 400) {
            return 320_000;
        }
        return 640_000;
    }

    /** Best effort everywhere: no PFC, no ECN, no DCQCN. */
    public static QosProfile bestEffort(String name) {
        BufferConfig buffer = new BufferConfig(64L * 1024 * 1024, BufferConfig.ThresholdMode.DYNAMIC, 0, 1.0, 0);
        return new QosProfile(name, "best effort, no PFC, no ECN", PfcConfig.off(), EcnConfig.off(),
                DcqcnConfig.off(), buffer, SchedulerConfig.defaults());
    }
}
