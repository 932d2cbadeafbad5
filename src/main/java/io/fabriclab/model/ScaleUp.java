package io.fabriclab.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A GPU server's scale-up domain: the NVLink / NVSwitch fabric that joins its GPUs, apart from the
 * NICs. Traffic between two GPUs of one server moves over it (docs/model.md, Scale-up domain):
 * every GPU sends and receives at most {@code bandwidthGBps} each way at once, and a transfer pays
 * {@code latencyNs} before its bytes move. NVSwitch is non-blocking, so the only limits are each
 * GPU's own NVLink ports (the simulator shares them max-min fair between concurrent transfers).
 *
 * @param gpu            GPU model the domain belongs to (a key of {@link #known()}, or free text when set by hand)
 * @param technology     the scale-up technology, e.g. "NVLink 4 / NVSwitch"
 * @param bandwidthGBps  per GPU, each direction, in GB/s (10^9 bytes per second)
 * @param latencyNs      per transfer (one hop GPU to GPU through the NVSwitch), nanoseconds
 */
public record ScaleUp(String gpu, String technology, double bandwidthGBps, long latencyNs) {

    /**
     * Latency of one NVLink hop: NCCL's own tuning model charges 0.47 us per ring step over NVLink
     * with its low-latency protocol (NVIDIA/nccl src/graph/tuning.cc, hwLat[NVLINK][RING][LL]);
     * the same figure for every generation, as NCCL uses it.
     */
    public static final long NVLINK_HOP_LATENCY_NS = 470;

    /**
     * The GPU generations FabricLab knows, with the NVLink bandwidth of their datasheets (total
     * bidirectional per GPU, halved for each direction).
     */
    private static final List<ScaleUp> KNOWN = List.of(
            // NVIDIA A100 Tensor Core GPU datasheet: NVLink 600 GB/s (third generation, 12 links).
            new ScaleUp("A100", "NVLink 3 / NVSwitch", 300, NVLINK_HOP_LATENCY_NS),
            // NVIDIA H100 Tensor Core GPU datasheet (SXM5): NVLink 900 GB/s (fourth generation, 18 links).
            new ScaleUp("H100", "NVLink 4 / NVSwitch", 450, NVLINK_HOP_LATENCY_NS),
            // NVIDIA H200 Tensor Core GPU datasheet (SXM): NVLink 900 GB/s.
            new ScaleUp("H200", "NVLink 4 / NVSwitch", 450, NVLINK_HOP_LATENCY_NS),
            // NVIDIA DGX B200 datasheet: 8 B200 GPUs, 14.4 TB/s aggregate NVLink = 1.8 TB/s per GPU (fifth generation).
            new ScaleUp("B200", "NVLink 5 / NVSwitch", 900, NVLINK_HOP_LATENCY_NS));

    /** The domain of a DGX H100-class server, what the generators write and a server without one is taken to have. */
    public static final ScaleUp DEFAULT = KNOWN.get(1);

    public ScaleUp {
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(technology, "technology");
        if (!(bandwidthGBps > 0) || bandwidthGBps > 100_000) {
            throw new IllegalArgumentException("scale-up bandwidth must be above 0 and at most 100000 GB/s, got "
                    + bandwidthGBps);
        }
        if (latencyNs < 0 || latencyNs > 1_000_000) {
            throw new IllegalArgumentException("scale-up latency must be 0-1000000 ns, got " + latencyNs);
        }
    }

    /** Every GPU generation with a cited domain, oldest first. */
    public static List<ScaleUp> known() {
        return KNOWN;
    }

    /** The known domain of GPU model {@code gpu} (case-insensitive, "h100", "H100-SXM" ...), or null. */
    public static ScaleUp of(String gpu) {
        if (gpu == null) {
            return null;
        }
        String g = gpu.trim().toUpperCase(Locale.ROOT);
        for (ScaleUp s : KNOWN) {
            if (g.equals(s.gpu) || g.startsWith(s.gpu + "-") || g.startsWith(s.gpu + " ")) {
                return s;
            }
        }
        return null;
    }

    /** Names of the known GPU models, for messages. */
    public static String knownNames() {
        return String.join(", ", KNOWN.stream().map(ScaleUp::gpu).toList());
    }

    /** Bandwidth each way per GPU in bytes per picosecond. */
    public double bytesPerPs() {
        return bandwidthGBps * 1e9 / 1e12;
    }

    public long latencyPs() {
        return latencyNs * Units.PS_PER_NS;
    }

    /** This domain with another bandwidth (a user's figure). */
    public ScaleUp withBandwidthGBps(double gbps) {
        return new ScaleUp(gpu, technology, gbps, latencyNs);
    }

    public ScaleUp withLatencyNs(long ns) {
        return new ScaleUp(gpu, technology, bandwidthGBps, ns);
    }

    /** The bandwidth as text, without a needless fraction: "450", "123.3". */
    public String bandwidthText() {
        return fmt(bandwidthGBps);
    }

    /** e.g. "NVLink 4 / NVSwitch 450 GB/s per GPU each way" (without the GPU and the latency). */
    public String summary() {
        return technology + " " + fmt(bandwidthGBps) + " GB/s per GPU each way";
    }

    /** e.g. "H100, NVLink 4 / NVSwitch, 450 GB/s each way per GPU, 470 ns". */
    public String describe() {
        return gpu + ", " + technology + ", " + fmt(bandwidthGBps) + " GB/s each way per GPU, " + latencyNs + " ns";
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
