package io.fabriclab.io.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.io.config.SwitchQosPlan.ConnectedPort;
import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

/**
 * A SONiC config_db.json fragment with the QoS of one switch, in the traditional buffer model.
 * Table and field names follow the SONiC Configuration Database Manual
 * (sonic-buildimage src/sonic-yang-models/doc/Configuration.md) and the YANG models
 * sonic-wred-profile, sonic-scheduler and sonic-pfcwd; every value is a string, as config_db stores
 * it. The fragment is meant to be merged into the platform's config_db (lanes, index and alias of
 * PORT stay the platform's). See docs/config-export.md for the mapping of every field.
 */
public final class SonicConfigDb implements SwitchConfigFormat {
    /** Name of the DSCP/TC/PG/queue maps this export defines. */
    public static final String MAP_NAME = "FABRICLAB";
    /** Lanes per port of the 64x400G/800G platforms AI fabrics are built on. */
    public static final int DEFAULT_LANES_PER_PORT = 8;

    static final String INGRESS_LOSSLESS_POOL = "ingress_lossless_pool";
    static final String EGRESS_LOSSLESS_POOL = "egress_lossless_pool";
    static final String EGRESS_LOSSY_POOL = "egress_lossy_pool";
    /** SONiC accepts 100-5000 ms for detection_time and 100-60000 ms for restoration_time (sonic-pfcwd.yang). */
    static final long WD_MIN_MS = 100;
    static final long WD_DETECTION_MAX_MS = 5000;
    static final long WD_RESTORATION_MAX_MS = 60000;

    private static final ObjectMapper JSON = io.fabriclab.io.JsonInput.writingMapper();
    /** The layout of SONiC's own config_db.json (Python json.dump, indent 4): "key": "value". */
    private static final DefaultPrettyPrinter LAYOUT = new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("    ", "\n"));

    private final int lanesPerPort;

    public SonicConfigDb() {
        this(DEFAULT_LANES_PER_PORT);
    }

    public SonicConfigDb(int lanesPerPort) {
        if (lanesPerPort < 1 || lanesPerPort > 8) {
            throw new IllegalArgumentException("lanes per port must be 1-8: " + lanesPerPort);
        }
        this.lanesPerPort = lanesPerPort;
    }

    @Override
    public Vendor vendor() {
        return Vendor.SONIC;
    }

    @Override
    public String render(Fabric fabric, Device device) {
        try {
            return JSON.writer(LAYOUT).writeValueAsString(tables(SwitchQosPlan.of(fabric, device))) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    /** The config_db tables as a Jackson tree (tables without entries are left out). */
    public ObjectNode tables(SwitchQosPlan plan) {
        ObjectNode root = JSON.createObjectNode();
        Map<ConnectedPort, String> names = new LinkedHashMap<>();
        plan.ports().forEach(cp -> names.put(cp, PortNumbering.sonic(cp.port(), lanesPerPort)));
        Set<Integer> lossless = plan.losslessPriorities();
        if (lossless.contains(0)) {
            throw new UnexportableQosException("switch " + plan.device().id() + ": PFC on priority 0 cannot be "
                    + "exported to SONiC, where priority group 0 holds all lossy traffic");
        }
        Map<QosProfile, ProfileNames> profileNames = profileNames(plan);

        ObjectNode port = root.putObject("PORT");
        names.forEach((cp, n) -> {
            ObjectNode e = port.putObject(n);
            e.put("admin_status", "up");
            e.put("description", SwitchQosPlan.description(cp));
            e.put("mtu", Integer.toString(QosValues.ipMtu(plan.fabric().mtuBytes())));
            // SONiC speeds are in Mb/s.
            e.put("speed", Long.toString(cp.link().speedGbps() * 1000L));
        });

        ObjectNode dscpToTc = root.putObject("DSCP_TO_TC_MAP").putObject(MAP_NAME);
        for (int d = 0; d < DscpClassification.DSCP_VALUES; d++) {
            dscpToTc.put(Integer.toString(d), Integer.toString(DscpClassification.trafficClass(d)));
        }
        ObjectNode tcToPg = root.putObject("TC_TO_PRIORITY_GROUP_MAP").putObject(MAP_NAME);
        for (int tc = 0; tc < DscpClassification.TRAFFIC_CLASSES; tc++) {
            // Lossless classes get their own priority group (its headroom); lossy ones share PG 0.
            tcToPg.put(Integer.toString(tc), Integer.toString(lossless.contains(tc) ? tc : 0));
        }
        ObjectNode tcToQueue = root.putObject("TC_TO_QUEUE_MAP").putObject(MAP_NAME);
        for (int tc = 0; tc < DscpClassification.TRAFFIC_CLASSES; tc++) {
            tcToQueue.put(Integer.toString(tc), Integer.toString(tc));
        }
        if (plan.anyPfc()) {
            ObjectNode pfcToQueue = root.putObject("MAP_PFC_PRIORITY_TO_QUEUE").putObject(MAP_NAME);
            for (int p = 0; p < DscpClassification.TRAFFIC_CLASSES; p++) {
                pfcToQueue.put(Integer.toString(p), Integer.toString(p));
            }
        }

        ObjectNode portQos = root.putObject("PORT_QOS_MAP");
        names.forEach((cp, n) -> {
            ObjectNode e = portQos.putObject(n);
            e.put("dscp_to_tc_map", MAP_NAME);
            e.put("tc_to_pg_map", MAP_NAME);
            e.put("tc_to_queue_map", MAP_NAME);
            if (cp.pfcOn()) {
                e.put("pfc_enable", String.join(",", cp.losslessPriorities().stream().sorted().map(String::valueOf).toList()));
                e.put("pfc_to_queue_map", MAP_NAME);
            }
        });

        BufferConfig pool = plan.switchQos().buffer();
        String poolMode = pool.mode() == BufferConfig.ThresholdMode.DYNAMIC ? "dynamic" : "static";
        ObjectNode pools = root.putObject("BUFFER_POOL");
        // One shared buffer, seen by SONiC as ingress and egress pools of the same size.
        pools.set(INGRESS_LOSSLESS_POOL, pool("ingress", poolMode, pool.poolBytes()));
        if (plan.anyPfc()) {
            pools.set(EGRESS_LOSSLESS_POOL, pool("egress", poolMode, pool.poolBytes()));
        }
        pools.set(EGRESS_LOSSY_POOL, pool("egress", poolMode, pool.poolBytes()));

        ObjectNode profiles = root.putObject("BUFFER_PROFILE");
        for (QosProfile q : plan.profilesInOrder()) {
            ProfileNames pn = profileNames.get(q);
            String where = "QoS profile \"" + q.name() + "\" on " + plan.device().id();
            BufferConfig b = q.buffer();
            PfcConfig pfc = q.pfc();
            if (pfc.enabled() && !pfc.priorities().isEmpty()) {
                ObjectNode pg = profiles.putObject(pn.pgLossless);
                pg.put("pool", INGRESS_LOSSLESS_POOL);
                // SAI XOFF_TH: the PG's headroom for what still arrives after PAUSE; size reserves it.
                pg.put("xoff", Long.toString(pfc.headroomBytes()));
                pg.put("xon", Long.toString(pfc.xonBytes()));
                pg.put("size", Long.toString(pfc.headroomBytes()));
                if (b.mode() == BufferConfig.ThresholdMode.STATIC) {
                    // A static PG limit is the occupancy at which PAUSE goes out: the design's XOFF.
                    pg.put("static_th", Long.toString(pfc.xoffBytes()));
                } else {
                    threshold(pg, b, where);
                }
                ObjectNode el = profiles.putObject(pn.egressLossless);
                el.put("pool", EGRESS_LOSSLESS_POOL);
                el.put("size", Long.toString(b.reservedPerQueueBytes()));
                // A lossless queue is paused, never dropped: its limit is the whole pool.
                el.put("static_th", Long.toString(pool.poolBytes()));
            }
            ObjectNode il = profiles.putObject(pn.ingressLossy);
            il.put("pool", INGRESS_LOSSLESS_POOL);
            il.put("size", "0");
            threshold(il, b, where);
            ObjectNode ey = profiles.putObject(pn.egressLossy);
            ey.put("pool", EGRESS_LOSSY_POOL);
            ey.put("size", Long.toString(b.reservedPerQueueBytes()));
            threshold(ey, b, where);
        }

        ObjectNode bufferPg = root.putObject("BUFFER_PG");
        names.forEach((cp, n) -> {
            ProfileNames pn = profileNames.get(cp.qos());
            bufferPg.putObject(n + "|0").put("profile", pn.ingressLossy);
            for (String r : ConfigNames.ranges(lossless)) {
                // A port without PFC still has the switch's lossless PGs; they stay lossy there.
                boolean mine = cp.losslessPriorities().containsAll(expand(r));
                if (!mine) {
                    for (int pg : expand(r)) {
                        bufferPg.putObject(n + "|" + pg).put("profile",
                                cp.losslessPriorities().contains(pg) ? pn.pgLossless : pn.ingressLossy);
                    }
                } else {
                    bufferPg.putObject(n + "|" + r).put("profile", pn.pgLossless);
                }
            }
        });

        ObjectNode bufferQueue = root.putObject("BUFFER_QUEUE");
        names.forEach((cp, n) -> {
            ProfileNames pn = profileNames.get(cp.qos());
            Set<Integer> lossy = new TreeSet<>();
            for (int qi = 0; qi < 8; qi++) {
                if (!cp.losslessPriorities().contains(qi)) {
                    lossy.add(qi);
                }
            }
            Map<String, String> entries = new TreeMap<>(Comparator.comparingInt(SonicConfigDb::first));
            ConfigNames.ranges(lossy).forEach(r -> entries.put(r, pn.egressLossy));
            ConfigNames.ranges(cp.losslessPriorities()).forEach(r -> entries.put(r, pn.egressLossless));
            entries.forEach((r, prof) -> bufferQueue.putObject(n + "|" + r).put("profile", prof));
        });

        ObjectNode wred = root.putObject("WRED_PROFILE");
        for (QosProfile q : plan.profilesInOrder()) {
            if (!q.ecn().enabled()) {
                continue;
            }
            String where = "QoS profile \"" + q.name() + "\" on " + plan.device().id();
            q.ecn().classes().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(en -> {
                WredEcn w = en.getValue();
                String name = profileNames.get(q).wred(en.getKey());
                if (wred.has(name)) {
                    throw new UnexportableQosException(where + ": WRED profile name " + name
                            + " (32 characters at most) clashes with another profile's; shorten the profile names");
                }
                ObjectNode e = wred.putObject(name);
                e.put("ecn", "ecn_all");
                e.put("wred_green_enable", "true");
                e.put("green_min_threshold", Long.toString(w.kminBytes()));
                e.put("green_max_threshold", Long.toString(w.kmaxBytes()));
                e.put("green_drop_probability", Integer.toString(
                        QosValues.percent(w.pmax(), where + ", ECN class " + en.getKey())));
            });
        }

        ObjectNode scheduler = root.putObject("SCHEDULER");
        ObjectNode queue = root.putObject("QUEUE");
        names.forEach((cp, n) -> {
            QosProfile q = cp.qos();
            for (int qi = 0; qi < 8; qi++) {
                String sched = schedulerName(q, qi, plan);
                if (!scheduler.has(sched)) {
                    ObjectNode s = scheduler.putObject(sched);
                    if (q.scheduler().strictPriorityClasses().contains(qi)) {
                        s.put("type", "STRICT");
                    } else {
                        s.put("type", "DWRR");
                        s.put("weight", Integer.toString(q.scheduler().dwrrWeights().get(qi)));
                    }
                }
                ObjectNode e = queue.putObject(n + "|" + qi);
                e.put("scheduler", sched);
                if (q.ecn().forClass(qi) != null) {
                    e.put("wred_profile", profileNames.get(q).wred(qi));
                }
            }
        });

        ObjectNode wd = root.putObject("PFC_WD");
        names.forEach((cp, n) -> {
            PfcConfig pfc = cp.qos().pfc();
            if (!cp.pfcOn() || pfc.watchdogUs() <= 0) {
                return;
            }
            String where = "port " + cp.port().ref();
            long ms = QosValues.watchdogMs(pfc, where);
            if (ms < WD_MIN_MS || ms > WD_DETECTION_MAX_MS) {
                throw new UnexportableQosException(where + ": PFC watchdog " + ms + " ms is outside SONiC's "
                        + "detection_time range " + WD_MIN_MS + "-" + WD_DETECTION_MAX_MS + " ms");
            }
            ObjectNode e = wd.putObject(n);
            e.put("action", pfc.watchdogAction() == PfcConfig.WatchdogAction.DROP ? "drop" : "forward");
            e.put("detection_time", Long.toString(ms));
            // The model has one watchdog time; restoration waits as long as detection did.
            e.put("restoration_time", Long.toString(ms));
        });

        List<String> empty = new ArrayList<>();
        root.fieldNames().forEachRemaining(t -> {
            if (root.get(t).isEmpty()) {
                empty.add(t);
            }
        });
        root.remove(empty);
        return root;
    }

    private static ObjectNode pool(String type, String mode, long size) {
        ObjectNode p = JSON.createObjectNode();
        p.put("type", type);
        p.put("mode", mode);
        p.put("size", Long.toString(size));
        return p;
    }

    private static void threshold(ObjectNode profile, BufferConfig b, String where) {
        if (b.mode() == BufferConfig.ThresholdMode.DYNAMIC) {
            profile.put("dynamic_th", Integer.toString(QosValues.dynamicThreshold(b.alpha(), where)));
        } else {
            profile.put("static_th", Long.toString(b.staticLimitBytes()));
        }
    }

    private static int first(String range) {
        int i = range.indexOf('-');
        return Integer.parseInt(i < 0 ? range : range.substring(0, i));
    }

    private static List<Integer> expand(String range) {
        int i = range.indexOf('-');
        if (i < 0) {
            return List.of(Integer.parseInt(range));
        }
        int a = Integer.parseInt(range.substring(0, i));
        int b = Integer.parseInt(range.substring(i + 1));
        return IntStream.rangeClosed(a, b).boxed().toList();
    }

    private static String schedulerName(QosProfile q, int queue, SwitchQosPlan plan) {
        if (q.scheduler().strictPriorityClasses().contains(queue)) {
            return "FABRICLAB_STRICT";
        }
        int w = q.scheduler().dwrrWeights().get(queue);
        if (w < 1 || w > 100) {
            throw new UnexportableQosException("QoS profile \"" + q.name() + "\" on " + plan.device().id()
                    + ": DWRR weight " + w + " of class " + queue + " is outside SONiC's 1-100");
        }
        return "FABRICLAB_DWRR_" + w;
    }

    private static Map<QosProfile, ProfileNames> profileNames(SwitchQosPlan plan) {
        Map<QosProfile, ProfileNames> m = new HashMap<>();
        Map<String, String> taken = new HashMap<>();
        for (QosProfile q : plan.profilesInOrder()) {
            String t = ConfigNames.token(q.name());
            String clash = taken.putIfAbsent(t, q.name());
            if (clash != null) {
                throw new UnexportableQosException("QoS profiles \"" + clash + "\" and \"" + q.name() + "\" on "
                        + plan.device().id() + " give the same SONiC object name " + t);
            }
            m.put(q, new ProfileNames(t));
        }
        return m;
    }

    /** The SONiC object names derived from one QoS profile. */
    private static final class ProfileNames {
        /** sonic-wred-profile.yang allows 32 characters. */
        private static final int WRED_NAME_MAX = 32;

        final String token;
        final String pgLossless;
        final String ingressLossy;
        final String egressLossless;
        final String egressLossy;

        ProfileNames(String token) {
            this.token = token;
            this.pgLossless = "pg_lossless_" + token + "_profile";
            this.ingressLossy = "ingress_lossy_" + token + "_profile";
            this.egressLossless = "egress_lossless_" + token + "_profile";
            this.egressLossy = "egress_lossy_" + token + "_profile";
        }

        String wred(int trafficClass) {
            String suffix = "_ECN_Q" + trafficClass;
            String base = token.length() + suffix.length() > WRED_NAME_MAX
                    ? token.substring(0, WRED_NAME_MAX - suffix.length()) : token;
            return base + suffix;
        }
    }
}
