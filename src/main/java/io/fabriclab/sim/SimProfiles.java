package io.fabriclab.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabriclab.model.DcqcnConfig;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.Port;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

/**
 * Named congestion-control parameter profiles (SIMULATION.md; sources in docs/model.md). A profile
 * rewrites the PFC, ECN and DCQCN parts of whatever QoS profile a port has; buffers and schedulers
 * stay as the fabric defines them.
 * <ul>
 * <li>{@code paper}: DCQCN as in Zhu et al. (SIGCOMM 2015) and its authors' simulator, with the
 * paper's ECN curve Kmin 5 KB, Kmax 200 KB, Pmax 1 % (set for 40G); PFC on.</li>
 * <li>{@code nic-firmware}: NVIDIA ConnectX-style DCQCN (alpha every 1 us, cut at most every 4 us,
 * increase timer 300 us, R_AI 5 Mb/s, R_HAI 50 Mb/s); the fabric's ECN curves, switched on; PFC on.</li>
 * <li>{@code production-ecn}: Alibaba's production ECN thresholds scaled with port speed (as the
 * HPCC and SimAI simulators use them: Pmax 0.2, 100G 400/1600 KB, 400G 800/3200 KB) with
 * firmware-style DCQCN; PFC on.</li>
 * <li>{@code pfc-only}: no ECN marking and no DCQCN; PFC alone keeps the RDMA class lossless.</li>
 * <li>{@code connectx}: NVIDIA ConnectX's published DCQCN defaults ({@link DcqcnConfig#connectX}),
 * ECN as {@code nic-firmware}; PFC on.</li>
 * </ul>
 */
public final class SimProfiles {
    public static final List<String> NAMES = List.of("paper", "nic-firmware", "production-ecn", "pfc-only", "connectx");

    private SimProfiles() {
    }

    public static boolean exists(String name) {
        return NAMES.contains(name);
    }

    /** The profile {@code name} applied to {@code base} on a port running at {@code speedGbps}. */
    public static QosProfile apply(String name, QosProfile base, int speedGbps) {
        PfcConfig pfc = base.pfc().enabled() && !base.pfc().priorities().isEmpty() ? base.pfc()
                : QosProfile.roceLossless("default", speedGbps).pfc();
        Set<Integer> lossless = pfc.priorities();
        return switch (name) {
            case "paper" -> base.withPfc(pfc).withDcqcn(DcqcnConfig.paper())
                    .withEcn(curveOn(lossless, new WredEcn(5_000, 200_000, 0.01), base.ecn().markAt()));
            case "nic-firmware" -> base.withPfc(pfc).withDcqcn(DcqcnConfig.nicFirmware())
                    .withEcn(base.ecn().classes().isEmpty()
                            ? curveOn(lossless, productionCurve(speedGbps), base.ecn().markAt())
                            : new EcnConfig(true, base.ecn().classes(), base.ecn().markAt()));
            case "production-ecn" -> base.withPfc(pfc).withDcqcn(DcqcnConfig.nicFirmware())
                    .withEcn(curveOn(lossless, productionCurve(speedGbps), base.ecn().markAt()));
            case "pfc-only" -> base.withPfc(pfc).withDcqcn(disabled(base.dcqcn())).withEcn(EcnConfig.off());
            case "connectx" -> base.withPfc(pfc).withDcqcn(DcqcnConfig.connectX())
                    .withEcn(base.ecn().classes().isEmpty()
                            ? curveOn(lossless, productionCurve(speedGbps), base.ecn().markAt())
                            : new EcnConfig(true, base.ecn().classes(), base.ecn().markAt()));
            default -> throw new IllegalArgumentException("unknown profile '" + name + "'; known: " + String.join(", ", NAMES));
        };
    }

    /**
     * Alibaba's production ECN curve for a port speed (HPCC simulator configuration): Pmax 0.2;
     * Kmin/Kmax 100/400 KB at 25G, 160/640 KB at 40G, 200/800 KB at 50G, 400/1600 KB at 100G,
     * 600/2400 KB at 200G, 800/3200 KB at 400G and above.
     */
    public static WredEcn productionCurve(int speedGbps) {
        long kminKb;
        if (speedGbps <= 25) {
            kminKb = 100;
        } else if (speedGbps <= 40) {
            kminKb = 160;
        } else if (speedGbps <= 50) {
            kminKb = 200;
        } else if (speedGbps <= 100) {
            kminKb = 400;
        } else if (speedGbps <= 200) {
            kminKb = 600;
        } else {
            kminKb = 800;
        }
        return new WredEcn(kminKb * 1000, kminKb * 4000, 0.2);
    }

    /** A resolver that applies {@code name} to the fabric's own QoS of every port (cached per profile and speed). */
    public static QosResolver resolver(Fabric fabric, String name, java.util.function.UnaryOperator<QosProfile> overrides) {
        QosResolver base = QosResolver.of(fabric);
        Map<String, QosProfile> cache = new HashMap<>();
        return (Port p) -> {
            QosProfile b = base.qosFor(p);
            int speed = QosResolver.speedOf(fabric, p);
            return cache.computeIfAbsent(b.name() + "@" + speed, k -> {
                QosProfile q = name == null ? b : apply(name, b, speed);
                return overrides == null ? q : overrides.apply(q);
            });
        };
    }

    private static EcnConfig curveOn(Set<Integer> classes, WredEcn curve, EcnConfig.MarkingPoint at) {
        Map<Integer, WredEcn> m = new HashMap<>();
        for (int c : classes) {
            m.put(c, curve);
        }
        return new EcnConfig(true, m, at);
    }

    private static DcqcnConfig disabled(DcqcnConfig d) {
        return d.withEnabled(false);
    }
}
