package io.fabriclab.io.config;

import io.fabriclab.model.PfcConfig;

/** Conversions from the model's units to the units switch configurations take, exact or refused. */
public final class QosValues {

    private QosValues() {
    }

    /**
     * A WRED/ECN maximum probability as the whole percent vendors take (SONiC green_drop_probability,
     * EOS max-mark-probability, NX-OS drop-probability), rounded to the nearest percent; a Pmax that
     * rounds to 0 % would switch marking off, so it is refused.
     */
    public static int percent(double pmax, String where) {
        long pct = Math.round(pmax * 100);
        if (pct < 1 || pct > 100) {
            throw new UnexportableQosException(where + ": ECN Pmax " + pmax + " is " + (pmax * 100)
                    + " %, switches take a whole percent from 1 to 100");
        }
        return (int) pct;
    }

    /** The PFC watchdog time in whole milliseconds (every vendor takes ms or 10 ms steps). */
    public static long watchdogMs(PfcConfig pfc, String where) {
        if (pfc.watchdogUs() % 1000 != 0) {
            throw new UnexportableQosException(where + ": PFC watchdog " + pfc.watchdogUs()
                    + " us is not a whole number of milliseconds");
        }
        return pfc.watchdogUs() / 1000;
    }

    /**
     * SONiC's dynamic_th is the base-2 logarithm of the dynamic-threshold factor alpha (SAI
     * SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH: alpha = 2^dynamic_th); only powers of two from
     * 2^-8 to 2^7 can be written.
     */
    public static int dynamicThreshold(double alpha, String where) {
        if (alpha > 0) {
            long exp = Math.round(Math.log(alpha) / Math.log(2));
            if (exp >= -8 && exp <= 7 && Math.abs(Math.scalb(1.0, (int) exp) - alpha) <= 1e-9 * alpha) {
                return (int) exp;
            }
        }
        throw new UnexportableQosException(where + ": buffer alpha " + alpha
                + " is not a power of two from 1/256 to 128 (SONiC dynamic_th = log2(alpha))");
    }

    /** A frame size (headers and FCS included) as the IP MTU SONiC and EOS interfaces take. */
    public static int ipMtu(int frameBytes) {
        // Untagged Ethernet: 14 B header + 4 B FCS around the IP packet.
        return frameBytes - 18;
    }
}
