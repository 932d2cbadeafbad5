package io.fabriclab.io.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.fabriclab.io.config.SwitchQosPlan.ConnectedPort;
import io.fabriclab.model.PfcConfig;

/**
 * The PFC watchdog of a switch whose OS sets it once for the whole switch (EOS, NX-OS): every
 * PFC-enabled port must agree on the time and the action, or the export is refused.
 *
 * @param ms     detection time in milliseconds (also used as the restoration time)
 * @param action what a stormed queue does
 */
public record SwitchWatchdog(long ms, PfcConfig.WatchdogAction action) {

    /** The switch's watchdog, empty when no PFC-enabled port has one. */
    public static Optional<SwitchWatchdog> of(SwitchQosPlan plan, Vendor vendor) {
        Map<SwitchWatchdog, ConnectedPort> seen = new LinkedHashMap<>();
        for (ConnectedPort cp : plan.ports()) {
            if (!cp.pfcOn()) {
                continue;
            }
            PfcConfig pfc = cp.qos().pfc();
            long ms = pfc.watchdogUs() > 0 ? QosValues.watchdogMs(pfc, "port " + cp.port().ref()) : 0;
            seen.putIfAbsent(new SwitchWatchdog(ms, pfc.watchdogAction()), cp);
        }
        if (seen.size() > 1) {
            var it = seen.entrySet().iterator();
            var a = it.next();
            var b = it.next();
            throw new UnexportableQosException(vendor + " sets the PFC watchdog once per switch, but on "
                    + plan.device().id() + " port " + a.getValue().port().name() + " has " + a.getKey().describe()
                    + " and port " + b.getValue().port().name() + " has " + b.getKey().describe());
        }
        return seen.keySet().stream().filter(w -> w.ms > 0).findFirst();
    }

    private String describe() {
        return ms == 0 ? "no watchdog" : ms + " ms / " + action;
    }
}
