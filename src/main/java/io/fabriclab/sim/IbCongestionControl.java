package io.fabriclab.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * InfiniBand congestion control (IBTA InfiniBand Architecture Specification vol. 1, annex A10;
 * docs/model.md, InfiniBand congestion control), over the simulator's ports, packets and flows.
 * Null in a run without it: every hook in the datapath is one null check.
 *
 * <ul>
 * <li>Switch (SwitchCongestionSetting): a data packet queued at a switch egress port finds that
 * port's VL queue above the threshold, is at least the minimum packet size, and the port is the
 * root of the congestion, not a victim: its VL is not waiting for the downstream credits (a
 * subnet manager's victim mask left at 0, OpenSM's default, marks only at the root). Such a packet
 * is eligible; of the eligible packets of a port's VL, one is marked with FECN and the next
 * {@code markingRate} are not, in turn.</li>
 * <li>Destination HCA: a reliable-connection responder answers a FECN-marked packet with an ACK
 * at once, its BECN bit set (annex A10: RC returns the notification in an acknowledgement; the
 * Linux hfi1 driver's RC receive path acknowledges a FECN packet immediately with BECN), also
 * when its ACK coalescing would have waited.</li>
 * <li>Source HCA (CACongestionSetting, QP-based, OpenSM's port control 0): every BECN adds
 * CCTI_Increase to the flow's CCTI, up to CCTI_Limit; CCTI_Timer, started by a BECN when it is not
 * running, takes 1 off the CCTI at every expiry until it reaches CCTI_Min, where it stops. The CCT
 * entry of the CCTI gives the injection delay the sender inserts after each packet of the flow:
 * (the time of a full packet at the source port's rate >> shift) x multiplier.</li>
 * </ul>
 *
 * <p>The timer runs lazily: the CCTI is brought up to date (the expiries since the timer started
 * applied) when it is read, at a send or a BECN, which equals a periodic timer without an event
 * per period.
 */
final class IbCongestionControl {
    private final SimContext sim;
    private final CreditFlowControl credits;
    private final PacketPool pkts;
    private final IbCongestionSettings s;
    private final long timerPs;
    private final int minBytes;

    // ----- switch side, at portClass(egress port, VL) -----
    private final long[] fecnMarked;
    /** Eligible packets still to let pass unmarked before the next mark. */
    private final int[] skip;

    // ----- HCA side, per flow -----
    private final int[] ccti;
    /** When the running CCTI_Timer started its current period (-1: stopped). */
    private final long[] timerFromPs;
    /** Since when the CCTI has been above 0 (-1: it is 0), and the time above 0 so far. */
    private final long[] aboveZeroSincePs;
    private final long[] aboveZeroPs;
    private final int[] maxCcti;
    private final long[] becnsReceived;
    private final long[] fecnReceived;
    private final boolean[] closed;
    /** The time of a full packet (largest payload plus headers) on each port, ps, computed on first use. */
    private final long[] maxPacketPs;
    private final int maxFrameBytes;
    private long becnsSent;

    IbCongestionControl(SimContext sim, CreditFlowControl credits, PacketPool pkts, IbCongestionSettings settings,
                        int ports, Flow[] flows, int maxFrameBytes) {
        this.sim = sim;
        this.credits = credits;
        this.pkts = pkts;
        this.s = settings;
        this.timerPs = settings.cctiTimer() * IbCongestionSettings.TIMER_UNIT_PS;
        this.minBytes = settings.packetSizeCredits() * CreditFlowControl.BLOCK_BYTES;
        this.maxFrameBytes = maxFrameBytes;
        int n = ports * EgressPort.CLASSES;
        fecnMarked = new long[n];
        skip = new int[n];
        int f = flows.length;
        ccti = new int[f];
        java.util.Arrays.fill(ccti, settings.cctiMin());
        timerFromPs = new long[f];
        java.util.Arrays.fill(timerFromPs, -1);
        aboveZeroSincePs = new long[f];
        java.util.Arrays.fill(aboveZeroSincePs, -1);
        aboveZeroPs = new long[f];
        maxCcti = new int[f];
        java.util.Arrays.fill(maxCcti, settings.cctiMin());
        becnsReceived = new long[f];
        fecnReceived = new long[f];
        closed = new boolean[f];
        maxPacketPs = new long[ports];
        java.util.Arrays.fill(maxPacketPs, -1);
    }

    IbCongestionSettings settings() {
        return s;
    }

    /** The queue above which a switch port's VL marks: the fraction of the VL buffer its threshold gives. */
    long thresholdBytes() {
        return s.thresholdBytes(credits.vlCreditBytes());
    }

    // ----- switch: FECN ------------------------------------------------------------------------

    /**
     * Data packet {@code pkt} of {@code bytes} is being queued at switch egress {@code out}, VL
     * {@code c}, behind {@code queueBytes} already queued there: marks it with FECN if the port's
     * VL is congested (see the class comment).
     */
    void atSwitchEgress(EgressPort out, int c, int pkt, int bytes, long queueBytes) {
        boolean mark = false;
        if (queueBytes > thresholdBytes() && bytes >= minBytes && pkts.ecn(pkt) != PacketPool.CE
                && credits.stallStartPs(out.id, c) < 0) {
            int k = EgressPort.portClass(out.id, c);
            if (skip[k] > 0) {
                skip[k]--;
            } else {
                skip[k] = s.markingRate();
                pkts.setEcn(pkt, PacketPool.CE);
                fecnMarked[k]++;
                mark = true;
            }
        }
        if (sim.trace() != null) {
            sim.trace().fecnDecision(sim.now(), out.ref(), c, queueBytes, mark);
        }
    }

    // ----- destination HCA: BECN ---------------------------------------------------------------

    /** The responder of {@code f} received a FECN-marked data packet. */
    void fecnReceived(Flow f) {
        fecnReceived[f.id]++;
    }

    /** An ACK with BECN set leaves the responder. */
    void becnSent() {
        becnsSent++;
    }

    // ----- source HCA: CCTI, timer, injection delay ---------------------------------------------

    /** A BECN reached the requester of {@code f}: its CCTI rises by CCTI_Increase up to CCTI_Limit; the timer starts if stopped. */
    void becn(Flow f) {
        int i = f.id;
        becnsReceived[i]++;
        if (closed[i]) {
            return;
        }
        long now = sim.now();
        advance(i, now);
        int before = ccti[i];
        int after = Math.min(s.cctiLimit(), before + s.cctiIncrease());
        ccti[i] = after;
        if (after > maxCcti[i]) {
            maxCcti[i] = after;
        }
        if (before == 0 && after > 0) {
            aboveZeroSincePs[i] = now;
        }
        if (timerFromPs[i] < 0 && timerPs > 0 && after > s.cctiMin()) {
            timerFromPs[i] = now;
        }
    }

    /** The injection delay after a packet of {@code f} sent now from HCA port {@code p}, ps. */
    long delayPs(Flow f, EgressPort p) {
        int i = f.id;
        advance(i, sim.now());
        long t = maxPacketPs[p.id];
        if (t < 0) {
            t = maxPacketPs[p.id] = p.serializationPs(maxFrameBytes);
        }
        return s.delayPs(ccti[i], t);
    }

    /** The requester of {@code f} has every packet acknowledged: its time at CCTI > 0 stops counting. */
    void senderDone(Flow f) {
        close(f.id, sim.now());
    }

    private void close(int i, long now) {
        if (closed[i]) {
            return;
        }
        advance(i, now);
        if (aboveZeroSincePs[i] >= 0) {
            aboveZeroPs[i] += now - aboveZeroSincePs[i];
            aboveZeroSincePs[i] = -1;
        }
        closed[i] = true;
    }

    /** Applies the CCTI_Timer expiries up to {@code now}: 1 off the CCTI each, down to CCTI_Min, where the timer stops. */
    private void advance(int i, long now) {
        long from = timerFromPs[i];
        if (from < 0 || now - from < timerPs) {
            return;
        }
        long expiries = (now - from) / timerPs;
        int c = ccti[i];
        int floor = s.cctiMin();
        if (c - expiries <= floor) {
            if (floor == 0 && aboveZeroSincePs[i] >= 0) {
                // It reached 0 at the (c)-th expiry.
                aboveZeroPs[i] += from + c * timerPs - aboveZeroSincePs[i];
                aboveZeroSincePs[i] = -1;
            }
            ccti[i] = floor;
            timerFromPs[i] = -1;
        } else {
            ccti[i] = (int) (c - expiries);
            timerFromPs[i] = from + expiries * timerPs;
        }
    }

    /** The CCTI of flow {@code id} now (tests). */
    int ccti(int id) {
        advance(id, sim.now());
        return ccti[id];
    }

    // ----- results -------------------------------------------------------------------------------

    SimResults.IbCongestionResult results(Flow[] flows, EgressPort[] ports, long endPs) {
        List<SimResults.FecnPortResult> byPort = new ArrayList<>();
        long marked = 0;
        for (EgressPort p : ports) {
            for (int c = 0; c < EgressPort.CLASSES; c++) {
                long m = fecnMarked[EgressPort.portClass(p.id, c)];
                if (m > 0) {
                    byPort.add(new SimResults.FecnPortResult(p.ref(), c, m));
                    marked += m;
                }
            }
        }
        List<SimResults.IbCcFlowResult> byFlow = new ArrayList<>();
        long becns = 0;
        long fecns = 0;
        long limited = 0;
        int top = 0;
        for (Flow f : flows) {
            int i = f.id;
            if (f.started) {
                close(i, endPs);
            }
            becns += becnsReceived[i];
            fecns += fecnReceived[i];
            limited += aboveZeroPs[i];
            top = Math.max(top, maxCcti[i]);
            if (becnsReceived[i] > 0 || fecnReceived[i] > 0 || maxCcti[i] > 0) {
                byFlow.add(new SimResults.IbCcFlowResult(i, fecnReceived[i], becnsReceived[i], maxCcti[i], ccti[i],
                        aboveZeroPs[i]));
            }
        }
        return new SimResults.IbCongestionResult(s.threshold(), thresholdBytes() == Long.MAX_VALUE ? -1 : thresholdBytes(),
                s.markingRate(), s.packetSizeCredits(), s.cctiIncrease(), s.cctiTimer(), s.cctiMin(), s.cctiLimit(),
                marked, fecns, becnsSent, becns, top, limited, byPort, byFlow);
    }
}
