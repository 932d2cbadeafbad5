package io.fabriclab.sim;

/**
 * InfiniBand link-layer and congestion-control parameters of a run (IBTA InfiniBand Architecture
 * Specification vol. 1, release 1.5; docs/model.md, Transports). Credit-based flow control per
 * virtual lane replaces PFC: a sender transmits a packet only when the receiver has advertised
 * 64-byte credits for all of it, so congestion never drops a packet.
 *
 * @param mtuBytes              path MTU, payload bytes: 256, 512, 1024, 2048 or 4096 (vol. 1 §7.7.8)
 * @param dataVls               data virtual lanes in use: 1, 2, 4, 8 or 15 (vol. 1 §7.6.4, VLCap)
 * @param vlBufferBytes         receive buffer advertised per data VL, a multiple of 64 B; at most 2048
 *                              blocks, the most the 12-bit credit check admits outstanding
 * @param fcRefreshSymbolTimes  a flow-control packet per VL at least this often, symbol (byte) times,
 *                              even with no credit change (vol. 1 §7.9.4: 65,536)
 * @param fcPacketsPerDataPacket flow-control packets the receiver sends per data packet that leaves
 *                              its buffer (1: an update for every packet freed, the tightest loop)
 * @param congestionControl     IB congestion control (FECN at a switch VL threshold, BECN, CCTI
 *                              injection delay; vol. 1 annex A10) on or off
 * @param crossSubnet           packets carry a GRH (40 B): only when they cross an IB router
 * @param congestionSettings    the congestion control's parameters, used when it is on
 */
public record TransportProfileIb(int mtuBytes, int dataVls, int vlBufferBytes, int fcRefreshSymbolTimes,
                                 int fcPacketsPerDataPacket, boolean congestionControl, boolean crossSubnet,
                                 IbCongestionSettings congestionSettings) {

    /**
     * Most blocks a sender may have outstanding: the credit check (FCCL - (FCTBS + blocks)) mod 4096
     * <= 2048 of vol. 1 §7.9.4 admits at most half the 12-bit counter's range (the simulator's
     * CreditFlowControl uses the same bound).
     */
    public static final int MAX_ADVERTISED_BLOCKS = IbFraming.CREDIT_COUNTER_MODULUS / 2;

    public TransportProfileIb {
        if (!IbFraming.isMtu(mtuBytes)) {
            throw new IllegalArgumentException("InfiniBand MTU " + mtuBytes + " B is not one of " + IbFraming.MTUS);
        }
        if (dataVls != 1 && dataVls != 2 && dataVls != 4 && dataVls != 8 && dataVls != 15) {
            throw new IllegalArgumentException("InfiniBand data VLs must be 1, 2, 4, 8 or 15, not " + dataVls);
        }
        if (vlBufferBytes % IbFraming.CREDIT_BLOCK_BYTES != 0 || vlBufferBytes < IbFraming.credits(
                IbFraming.packetBytes(mtuBytes, crossSubnet)) * IbFraming.CREDIT_BLOCK_BYTES
                || vlBufferBytes / IbFraming.CREDIT_BLOCK_BYTES > MAX_ADVERTISED_BLOCKS) {
            throw new IllegalArgumentException("InfiniBand VL buffer " + vlBufferBytes + " B must be a multiple of 64 B, "
                    + "hold one MTU packet and be at most " + MAX_ADVERTISED_BLOCKS + " blocks");
        }
        if (fcRefreshSymbolTimes <= 0 || fcPacketsPerDataPacket < 0) {
            throw new IllegalArgumentException("flow-control period and rate must be positive");
        }
        java.util.Objects.requireNonNull(congestionSettings, "congestionSettings");
    }

    /** The profile without congestion settings of its own: {@link IbCongestionSettings#defaults()}. */
    public TransportProfileIb(int mtuBytes, int dataVls, int vlBufferBytes, int fcRefreshSymbolTimes,
                              int fcPacketsPerDataPacket, boolean congestionControl, boolean crossSubnet) {
        this(mtuBytes, dataVls, vlBufferBytes, fcRefreshSymbolTimes, fcPacketsPerDataPacket, congestionControl,
                crossSubnet, IbCongestionSettings.defaults());
    }

    /**
     * Defaults: MTU 4096 (the largest, what NVIDIA ConnectX HCAs and the subnet manager negotiate
     * by default on a 4096-capable fabric); one data VL (SL0 to VL0, the common deployment; more
     * VLs are the escape from a credit loop); 2048 credits = 128 KiB per VL, the most the 12-bit
     * credit check admits, enough for line rate at 400 Gb/s while the credit round trip is at most
     * 128 KiB x 8 / 400 Gb/s = 2.62 us (about 250 m of fibre plus switch latency); FC refresh
     * every 65,536 symbol times (vol. 1 §7.9.4); an FC packet for every data packet freed; IB
     * congestion control off, as the common deployment runs it: it must be configured in the
     * subnet manager (OpenSM's {@code congestion_control} is FALSE unless enabled, and every one of
     * its CC parameters then defaults to 0, nothing configured) and NVIDIA fabrics rely on
     * adaptive routing instead; its parameters, when switched on, are
     * {@link IbCongestionSettings#defaults()}; no GRH (one subnet).
     */
    public static TransportProfileIb defaults() {
        return new TransportProfileIb(IbFraming.MAX_MTU_BYTES, 1, 2048 * IbFraming.CREDIT_BLOCK_BYTES, 65_536, 1,
                false, false);
    }

    public TransportProfileIb withMtuBytes(int mtu) {
        return new TransportProfileIb(mtu, dataVls, vlBufferBytes, fcRefreshSymbolTimes, fcPacketsPerDataPacket,
                congestionControl, crossSubnet, congestionSettings);
    }

    /** This profile with IB congestion control on under {@code settings}. */
    public TransportProfileIb withCongestionControl(IbCongestionSettings settings) {
        return new TransportProfileIb(mtuBytes, dataVls, vlBufferBytes, fcRefreshSymbolTimes, fcPacketsPerDataPacket,
                true, crossSubnet, settings);
    }

    /** Bytes of one data packet of a full MTU on the wire. */
    public int packetBytes() {
        return IbFraming.packetBytes(mtuBytes, crossSubnet);
    }

    /** Credits (64-byte blocks) of the receive buffer advertised per VL. */
    public int vlCredits() {
        return vlBufferBytes / IbFraming.CREDIT_BLOCK_BYTES;
    }

    /**
     * Throughput bound of the credit loop, bits per second: a link with C bytes of credit and a
     * credit round trip R carries at most C / R (the sender waits for credits once C is in flight),
     * and never more than its line rate.
     */
    public static double creditLimitedBps(long creditBytes, long roundTripPs, long lineRateBps) {
        if (roundTripPs <= 0) {
            return lineRateBps;
        }
        return Math.min(lineRateBps, creditBytes * 8.0 * 1e12 / roundTripPs);
    }
}
