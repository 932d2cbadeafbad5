package io.fabriclab.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A flow-size distribution given as CDF points (bytes, cumulative percent), sizes between points
 * interpolated linearly, as the HPCC simulator's traffic generator reads its distribution files.
 * Shipped: {@code websearch} (DCTCP) and {@code hadoop} (Facebook), under resources/flowsizes
 * with their sources.
 */
public final class FlowSizeDistribution {
    /** Names of the shipped distributions. */
    public static final List<String> SHIPPED = List.of("websearch", "hadoop");

    private final String name;
    private final double[] bytes;
    private final double[] cdf;

    /**
     * @param points (bytes, cumulative percent) pairs, both non-decreasing, the first percent 0
     *               and the last 100
     */
    public FlowSizeDistribution(String name, List<double[]> points) {
        this.name = name;
        if (points.size() < 2) {
            throw new IllegalArgumentException("a size CDF needs at least 2 points, got " + points.size());
        }
        bytes = new double[points.size()];
        cdf = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            double[] p = points.get(i);
            if (p.length != 2 || p[0] < 0 || p[1] < 0 || p[1] > 100) {
                throw new IllegalArgumentException("size CDF point " + i + ": need [bytes >= 0, percent 0-100]");
            }
            if (i > 0 && (p[0] < bytes[i - 1] || p[1] < cdf[i - 1])) {
                throw new IllegalArgumentException("size CDF point " + i + ": bytes and percent must not decrease");
            }
            bytes[i] = p[0];
            cdf[i] = p[1];
        }
        if (cdf[0] != 0 || cdf[cdf.length - 1] != 100) {
            throw new IllegalArgumentException("size CDF must start at 0 % and end at 100 %");
        }
    }

    /** A shipped distribution by name (see {@link #SHIPPED}). */
    public static FlowSizeDistribution shipped(String name) {
        if (!SHIPPED.contains(name)) {
            throw new IllegalArgumentException("unknown flow-size distribution '" + name + "'; shipped: "
                    + String.join(", ", SHIPPED));
        }
        try (InputStream in = FlowSizeDistribution.class.getResourceAsStream("/fabriclab/flowsizes/" + name + ".cdf")) {
            if (in == null) {
                throw new IllegalStateException("flow-size distribution " + name + " is missing from the build");
            }
            List<double[]> pts = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\s+");
                pts.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])});
            }
            return new FlowSizeDistribution(name, pts);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read flow-size distribution " + name, e);
        }
    }

    public String name() {
        return name;
    }

    /** The mean size in bytes: each segment contributes its probability times its midpoint. */
    public double mean() {
        double m = 0;
        for (int i = 1; i < bytes.length; i++) {
            m += (cdf[i] - cdf[i - 1]) / 100.0 * (bytes[i] + bytes[i - 1]) / 2;
        }
        return m;
    }

    /** The size at cumulative probability {@code u} (0..1), at least 1 byte. */
    public long quantile(double u) {
        double pct = u * 100;
        for (int i = 1; i < bytes.length; i++) {
            if (pct <= cdf[i]) {
                double span = cdf[i] - cdf[i - 1];
                double x = span == 0 ? bytes[i] : bytes[i - 1] + (bytes[i] - bytes[i - 1]) * (pct - cdf[i - 1]) / span;
                return Math.max(1, Math.round(x));
            }
        }
        return Math.max(1, Math.round(bytes[bytes.length - 1]));
    }
}
