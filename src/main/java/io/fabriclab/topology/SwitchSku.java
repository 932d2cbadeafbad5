package io.fabriclab.topology;

import java.util.Map;
import java.util.TreeMap;

import io.fabriclab.model.Device;
import io.fabriclab.model.Port;

/**
 * The port configuration of a switch as the trade writes it: "64x400G", or for mixed speeds the
 * groups fastest first, "2x400G+8x100G". Generators store it as the device model; the bill of
 * materials prices switches by it.
 */
public final class SwitchSku {
    private SwitchSku() {
    }

    /** The port configuration of a device from its ports (all of them, linked or free). */
    public static String of(Device d) {
        Map<Integer, Integer> bySpeed = new TreeMap<>((x, y) -> Integer.compare(y, x));
        for (Port p : d.ports()) {
            bySpeed.merge(p.speedGbps(), 1, Integer::sum);
        }
        if (bySpeed.isEmpty()) {
            return "0 ports";
        }
        StringBuilder sb = new StringBuilder();
        bySpeed.forEach((speed, count) -> {
            if (sb.length() > 0) {
                sb.append('+');
            }
            sb.append(count).append('x').append(speed).append('G');
        });
        return sb.toString();
    }
}
