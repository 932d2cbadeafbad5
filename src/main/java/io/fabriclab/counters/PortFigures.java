package io.fabriclab.counters;

/**
 * What one port did, as rates per second (NaN: no figure for it), whether measured, simulated or
 * their difference: the same few numbers the comparison prints and the measured layer draws.
 *
 * @param pfcRxPerS       PFC pause frames received (the port's egress paused by its peer)
 * @param pfcTxPerS       PFC pause frames sent (the port pausing its peer)
 * @param pausedShare     share of time the port's egress was held paused (0..1), from pause durations
 * @param ecnPerS         ECN-marked packets: at the port's egress (switch), received (NIC)
 * @param cnpSentPerS     CNPs the port's NIC sent
 * @param cnpHandledPerS  CNPs the port's NIC handled
 * @param dropsPerS       packets dropped at the port
 * @param txBytesPerS     bytes transmitted (or packets × nothing: NaN when only packets are known)
 * @param watermarkBytes  the largest egress queue watermark (bytes, a level, not a rate)
 */
public record PortFigures(double pfcRxPerS, double pfcTxPerS, double pausedShare, double ecnPerS, double cnpSentPerS,
                          double cnpHandledPerS, double dropsPerS, double txBytesPerS, double watermarkBytes) {

    public static final PortFigures NONE = new PortFigures(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /** CNPs sent and handled together (a NIC is both notification and reaction point). */
    public double cnpPerS() {
        return nanSum(cnpSentPerS, cnpHandledPerS);
    }

    /** Pause frames either way. */
    public double pfcPerS() {
        return nanSum(pfcRxPerS, pfcTxPerS);
    }

    /** {@code a - b} figure by figure (NaN where either has none). */
    public PortFigures minus(PortFigures b) {
        return new PortFigures(pfcRxPerS - b.pfcRxPerS, pfcTxPerS - b.pfcTxPerS, pausedShare - b.pausedShare,
                ecnPerS - b.ecnPerS, cnpSentPerS - b.cnpSentPerS, cnpHandledPerS - b.cnpHandledPerS,
                dropsPerS - b.dropsPerS, txBytesPerS - b.txBytesPerS, watermarkBytes - b.watermarkBytes);
    }

    static double nanSum(double a, double b) {
        if (Double.isNaN(a)) {
            return b;
        }
        return Double.isNaN(b) ? a : a + b;
    }

    /**
     * How far apart two ports' figures are, figure by figure (|a − b|; NaN where either has none):
     * what the difference view draws.
     */
    public static PortFigures absDiff(PortFigures a, PortFigures b) {
        return new PortFigures(Math.abs(a.pfcRxPerS - b.pfcRxPerS), Math.abs(a.pfcTxPerS - b.pfcTxPerS),
                Math.abs(a.pausedShare - b.pausedShare), Math.abs(a.ecnPerS - b.ecnPerS),
                Math.abs(a.cnpSentPerS - b.cnpSentPerS), Math.abs(a.cnpHandledPerS - b.cnpHandledPerS),
                Math.abs(a.dropsPerS - b.dropsPerS), Math.abs(a.txBytesPerS - b.txBytesPerS),
                Math.abs(a.watermarkBytes - b.watermarkBytes));
    }
}
