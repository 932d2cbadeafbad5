package io.fabriclab.diagram;

/**
 * How a colour looks to people with the two common red-green colour vision deficiencies, and how
 * far apart two colours look, to check that the colour language (docs/editor.md) keeps its meanings
 * apart for them.
 * <ul>
 * <li>Simulation: Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation of
 *     Color Vision Deficiency", IEEE TVCG 15(6), 2009; the severity 1.0 matrices (protanopia,
 *     deuteranopia) of the paper's table, applied to linear sRGB.</li>
 * <li>Distance: CIE 1976 L*a*b* ΔE (CIE 15:2004), sRGB (IEC 61966-2-1) with the D65 white.</li>
 * </ul>
 */
public final class ColourVision {
    /** Which vision to simulate. */
    public enum Vision {
        NORMAL(new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}),
        PROTANOPIA(new double[][] {
                {0.152286, 1.052583, -0.204868},
                {0.114503, 0.786281, 0.099216},
                {-0.003882, -0.048116, 1.051998}}),
        DEUTERANOPIA(new double[][] {
                {0.367322, 0.860646, -0.227968},
                {0.280085, 0.672501, 0.047413},
                {-0.011820, 0.042940, 0.968881}});

        private final double[][] m;

        Vision(double[][] m) {
            this.m = m;
        }
    }

    private ColourVision() {
    }

    /** The colour as seen with {@code v}, in linear sRGB 0..1 (clamped to the gamut). */
    public static double[] simulateLinear(Rgba c, Vision v) {
        double[] lin = {toLinear(c.r()), toLinear(c.g()), toLinear(c.b())};
        double[] out = new double[3];
        for (int i = 0; i < 3; i++) {
            double s = v.m[i][0] * lin[0] + v.m[i][1] * lin[1] + v.m[i][2] * lin[2];
            out[i] = Math.max(0, Math.min(1, s));
        }
        return out;
    }

    /** The colour as seen with {@code v}, as an 8-bit colour. */
    public static Rgba simulate(Rgba c, Vision v) {
        double[] l = simulateLinear(c, v);
        return new Rgba(toByte(l[0]), toByte(l[1]), toByte(l[2]), c.a());
    }

    /** CIE L*a*b* (D65) of a linear sRGB colour. */
    public static double[] lab(double[] lin) {
        double x = 0.4124564 * lin[0] + 0.3575761 * lin[1] + 0.1804375 * lin[2];
        double y = 0.2126729 * lin[0] + 0.7151522 * lin[1] + 0.0721750 * lin[2];
        double z = 0.0193339 * lin[0] + 0.1191920 * lin[1] + 0.9503041 * lin[2];
        double fx = f(x / 0.95047);
        double fy = f(y / 1.0);
        double fz = f(z / 1.08883);
        return new double[] {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
    }

    /** ΔE*ab (CIE 1976) between two colours as seen with {@code v}. */
    public static double deltaE(Rgba a, Rgba b, Vision v) {
        double[] p = lab(simulateLinear(a, v));
        double[] q = lab(simulateLinear(b, v));
        return Math.sqrt(sq(p[0] - q[0]) + sq(p[1] - q[1]) + sq(p[2] - q[2]));
    }

    private static double f(double t) {
        double d = 6.0 / 29;
        return t > d * d * d ? Math.cbrt(t) : t / (3 * d * d) + 4.0 / 29;
    }

    private static double sq(double v) {
        return v * v;
    }

    static double toLinear(int c8) {
        double c = c8 / 255.0;
        return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }

    private static int toByte(double lin) {
        double c = lin <= 0.0031308 ? 12.92 * lin : 1.055 * Math.pow(lin, 1 / 2.4) - 0.055;
        return (int) Math.round(Math.max(0, Math.min(1, c)) * 255);
    }
}
