package io.fabriclab.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabriclab.model.Fabric;
import io.fabriclab.workload.FlowSizeDistribution;
import io.fabriclab.workload.FlowSpec;
import io.fabriclab.workload.PoissonBackground;

/** Poisson background load from the shipped web-search CDF: the links carry the target load. */
class BackgroundLoadTest {

    @Test
    void theWebSearchCdfHasThePublishedMean() {
        // Mean of a piecewise-linear CDF: sum over segments of probability x midpoint, e.g. the
        // first segment 0-10 KB with 15 % gives 0.15 x 5 KB = 750 B; all 11 segments sum to 1,711,250 B.
        assertEquals(1_711_250.0, FlowSizeDistribution.shipped("websearch").mean(), 1e-6);
        assertEquals(120_420.75, FlowSizeDistribution.shipped("hadoop").mean(), 1e-6);
        // Quantiles interpolate linearly: 50 % lies between (50 KB, 40 %) and (80 KB, 53 %).
        assertEquals(50_000 + Math.round(30_000 * 10 / 13.0), FlowSizeDistribution.shipped("websearch").quantile(0.5));
    }

    @Test
    void fiftyPercentWebSearchLoadIsWhatTheLinksCarry() {
        // 16 servers at 100G on one switch; every NIC offers 50 % of its link for 20 ms.
        // lambda = 0.5 x 12.5e9 B/s / 1,711,250 B = 3,652 flows/s per NIC: round(73.04) = 73 flows each,
        // 1,168 in all, offering 0.5 x 12.5 GB/s x 20 ms x 16 = 2.0 GB (73/73.04 of it after rounding).
        int n = 16;
        long t = 20_000 * 1_000_000L;
        Fabric f = TestFabrics.star(n, 100, 1.0, IncastTest.pfcOnly(200_000, 150_000, 100_000));
        PoissonBackground bg = new PoissonBackground(List.of(), FlowSizeDistribution.shipped("websearch"), 0.5, 0, t, 3,
                7, "background");
        List<FlowSpec> flows = bg.flows(f);
        assertEquals(n * 73, flows.size());
        long offered = flows.stream().mapToLong(FlowSpec::bytes).sum();
        double target = 0.5 * 12.5e9 * (t / 1e12) * n;
        // Stratified sizes: the sample mean is the CDF's mean to well under 1 %.
        assertEquals(target * 73 / 73.04, offered, target * 0.01);

        Simulator sim = new Simulator(f, flows, SimConfig.defaults().withMaxTimePs(200_000 * 1_000_000L));
        SimResults r = sim.run();
        assertEquals(flows.size(), r.run().flowsCompleted());
        assertEquals(0, r.summary().drops());

        // What each NIC's uplink carries on the wire: its data frames (payload + 62 B of headers +
        // 20 B of preamble and gap per packet) and one ACK (66 + 20 B) per packet it receives. With
        // P = 4,096 B per full packet, wire = sum over flows of bytes + packets x (82 + 86).
        int payload = RoceFraming.maxPayload(f.mtuBytes());
        double wire = 0;
        for (FlowSpec fs : flows) {
            long packets = (fs.bytes() + payload - 1) / payload;
            wire += fs.bytes() + packets * (RoceFraming.DATA_HEADER_BYTES + RoceFraming.WIRE_OVERHEAD_BYTES
                    + RoceFraming.ACK_FRAME_BYTES + RoceFraming.WIRE_OVERHEAD_BYTES);
        }
        double expectedUtil = wire / (n * 12.5e9 * (t / 1e12));
        // Measured on the links: every byte the 16 NIC uplinks put on the wire during the run
        // (frames + 20 B each), over 16 x 12.5 GB/s x 20 ms. Nothing is lost or resent, so this is
        // the offered load plus exactly the header and ACK overhead above.
        double carried = 0;
        for (SimResults.LinkResult l : r.links()) {
            if (l.from().startsWith("s")) {
                carried += l.frameBytes() + l.frames() * RoceFraming.WIRE_OVERHEAD_BYTES;
            }
        }
        double measuredRun = carried / (n * 12.5e9 * (t / 1e12));
        assertEquals(expectedUtil, measuredRun, 0.01 * expectedUtil);
        assertEquals(0.5, measuredRun, 0.05, "a 50 % payload load is 52 % on the wire with 4 KB frames and ACKs");
        // Time-resolved: the mean utilization of the 16 NIC uplinks from 5 ms (past the start,
        // when the fabric is empty) to 20 ms, from their sampled series. In steady state what a
        // link carries per unit time is what is offered to it, but the heavy tail makes any 15 ms
        // window noisy: the 3 % of flows above 10 MB carry about a third of the bytes, and when
        // they arrive is random. So the window is checked to 5 %.
        double sum = 0;
        int links = 0;
        for (SimResults.LinkResult l : r.links()) {
            if (!l.from().startsWith("s")) {
                continue;
            }
            SimResults.Series s = l.utilization();
            double u = 0;
            int points = 0;
            for (int i = 0; i < s.timesPs().length; i++) {
                if (s.timesPs()[i] >= t / 4 && s.timesPs()[i] < t) {
                    u += s.values()[i];
                    points++;
                }
            }
            sum += u / points;
            links++;
        }
        assertEquals(n, links);
        double measured = sum / links;
        System.out.printf("background: target 50 %% payload load, offered %.2f %%, wire expected %.2f %%, carried %.2f %% (run), %.2f %% (5-20 ms)%n",
                100 * offered / (n * 12.5e9 * t / 1e12), 100 * expectedUtil, 100 * measuredRun, 100 * measured);
        assertEquals(expectedUtil, measured, 0.05 * expectedUtil);
    }
}
