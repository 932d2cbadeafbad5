package io.fabriclab.io.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabriclab.model.BufferConfig;
import io.fabriclab.model.EcnConfig;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.PfcConfig;
import io.fabriclab.model.QosProfile;
import io.fabriclab.model.WredEcn;

class SonicConfigDbTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode export(Fabric f, String sw) throws Exception {
        String text = new SonicConfigDb().render(f, f.device(sw));
        return JSON.readTree(text);
    }

    @Test
    void portsAreNamedByFirstLaneAndCarryLinkSpeedAndIpMtu() throws Exception {
        JsonNode port = export(ExportFixtures.lab(), "leaf1").get("PORT");
        // eth1, eth2, eth3 on 8 lanes per port: Ethernet0, Ethernet8, Ethernet16; eth4 has no link.
        assertEquals(List.of("Ethernet0", "Ethernet8", "Ethernet16"), fieldNames(port));
        // Server links run at 100G = 100000 Mb/s; the uplink at 400G.
        assertEquals("100000", port.get("Ethernet0").get("speed").asText());
        assertEquals("400000", port.get("Ethernet16").get("speed").asText());
        // 4200 B frames (Fabric.DEFAULT_MTU_BYTES) minus 14 B header and 4 B FCS = 4182 B IP MTU.
        assertEquals("4182", port.get("Ethernet0").get("mtu").asText());
        assertEquals("up", port.get("Ethernet0").get("admin_status").asText());
        assertEquals("to spine1:eth1", port.get("Ethernet16").get("description").asText());
    }

    @Test
    void fourLanePlatformsNumberPortsInStepsOfFour() throws Exception {
        Fabric f = ExportFixtures.lab();
        JsonNode db = JSON.readTree(new SonicConfigDb(4).render(f, f.device("leaf1")));
        assertEquals(List.of("Ethernet0", "Ethernet4", "Ethernet8"), fieldNames(db.get("PORT")));
    }

    @Test
    void lossyPriorityIsPausedOnlyOnThree() throws Exception {
        JsonNode db = export(ExportFixtures.lab(), "leaf1");
        JsonNode qosMap = db.get("PORT_QOS_MAP").get("Ethernet0");
        assertEquals("3", qosMap.get("pfc_enable").asText());
        assertEquals("FABRICLAB", qosMap.get("dscp_to_tc_map").asText());
        assertEquals("FABRICLAB", qosMap.get("tc_to_pg_map").asText());
        assertEquals("FABRICLAB", qosMap.get("tc_to_queue_map").asText());
        // RoCEv2 DSCP 26 = 0b011010 -> 26 >> 3 = 3; CNP DSCP 48 -> 6; best effort 0 -> 0.
        JsonNode dscp = db.get("DSCP_TO_TC_MAP").get("FABRICLAB");
        assertEquals(64, dscp.size());
        assertEquals("3", dscp.get("26").asText());
        assertEquals("6", dscp.get("48").asText());
        assertEquals("0", dscp.get("0").asText());
        // Lossless TC 3 gets PG 3 (its own headroom); lossy TCs share PG 0.
        JsonNode tcToPg = db.get("TC_TO_PRIORITY_GROUP_MAP").get("FABRICLAB");
        assertEquals("3", tcToPg.get("3").asText());
        assertEquals("0", tcToPg.get("5").asText());
    }

    @Test
    void losslessBufferProfileCarriesTheDesignedXonXoffAndHeadroom() throws Exception {
        QosProfile roce = QosProfile.roceLossless("roce", 400);
        JsonNode db = export(ExportFixtures.lab(roce), "leaf1");
        JsonNode pg = db.get("BUFFER_PROFILE").get("pg_lossless_roce_profile");
        // roceLossless at 400G: headroom 320 kB is SONiC's xoff (room after PAUSE). Issue 35 item 23: the
        // resume hysteresis XOFF - XON = 1,000,000 - 800,000 goes into xon (and, on Broadcom, xon_offset),
        // never the absolute XON: PFC resumes at max(xon, limit - xon_offset) = 800 kB when the limit is XOFF.
        assertEquals(Long.toString(roce.pfc().headroomBytes()), pg.get("xoff").asText());
        assertEquals("320000", pg.get("xoff").asText());
        long hysteresis = roce.pfc().xoffBytes() - roce.pfc().xonBytes();
        assertEquals(Long.toString(hysteresis), pg.get("xon").asText());
        assertEquals(Long.toString(hysteresis), pg.get("xon_offset").asText());
        assertEquals(Long.toString(roce.buffer().reservedPerQueueBytes()), pg.get("size").asText(),
                "Broadcom: size is the PG's guaranteed minimum (Arista-7060CX-32S-Q32 pg_profile_lookup.ini: 1248)");
        assertEquals(roce.pfc().xoffBytes() - Long.parseLong(pg.get("xon_offset").asText()), roce.pfc().xonBytes());
        // Mellanox Spectrum: size = xon + xoff (ACS-MSN2700 pg_profile_lookup.ini: 50176 = 19456 + 30720), no xon_offset.
        io.fabriclab.model.Fabric lab = ExportFixtures.lab(roce);
        JsonNode mlnx = new com.fasterxml.jackson.databind.ObjectMapper().readTree(new SonicConfigDb(8,
                SonicAsic.MELLANOX).render(lab, lab.device("leaf1")))
                .get("BUFFER_PROFILE").get("pg_lossless_roce_profile");
        assertEquals(Long.toString(hysteresis), mlnx.get("xon").asText());
        assertEquals(Long.toString(hysteresis + roce.pfc().headroomBytes()), mlnx.get("size").asText());
        assertEquals(null, mlnx.get("xon_offset"));
        assertTrue(Long.parseLong(mlnx.get("size").asText()) >= Long.parseLong(mlnx.get("xon").asText()));
        // alpha 1 = 2^0.
        assertEquals("0", pg.get("dynamic_th").asText());
        assertEquals("ingress_lossless_pool", pg.get("pool").asText());

        JsonNode pool = db.get("BUFFER_POOL").get("ingress_lossless_pool");
        assertEquals("67108864", pool.get("size").asText()); // 64 MiB = 64 * 1024 * 1024 B
        assertEquals("dynamic", pool.get("mode").asText());
        assertEquals("ingress", pool.get("type").asText());
        assertEquals("egress", db.get("BUFFER_POOL").get("egress_lossy_pool").get("type").asText());
        assertEquals("67108864", db.get("BUFFER_POOL").get("egress_lossless_pool").get("size").asText());

        JsonNode bufferPg = db.get("BUFFER_PG");
        assertEquals("pg_lossless_roce_profile", bufferPg.get("Ethernet0|3").get("profile").asText());
        assertEquals("ingress_lossy_roce_profile", bufferPg.get("Ethernet0|0").get("profile").asText());
        JsonNode bufferQueue = db.get("BUFFER_QUEUE");
        assertEquals(List.of("Ethernet0|0-2", "Ethernet0|3", "Ethernet0|4-7"),
                fieldNames(bufferQueue).subList(0, 3));
        assertEquals("egress_lossless_roce_profile", bufferQueue.get("Ethernet0|3").get("profile").asText());
        assertEquals("egress_lossy_roce_profile", bufferQueue.get("Ethernet0|4-7").get("profile").asText());
    }

    @Test
    void wredThresholdsEqualTheProfilesEcnCurve() throws Exception {
        QosProfile roce = QosProfile.roceLossless("roce", 400);
        WredEcn curve = roce.ecn().forClass(3);
        JsonNode db = export(ExportFixtures.lab(roce), "leaf1");
        JsonNode wred = db.get("WRED_PROFILE").get("roce_ECN_Q3");
        assertEquals(Long.toString(curve.kminBytes()), wred.get("green_min_threshold").asText());
        assertEquals(Long.toString(curve.kmaxBytes()), wred.get("green_max_threshold").asText());
        // 400G in roceLossless: Kmin 800 kB, Kmax 3.2 MB, Pmax 0.2 = 20 %.
        assertEquals("800000", wred.get("green_min_threshold").asText());
        assertEquals("3200000", wred.get("green_max_threshold").asText());
        assertEquals("20", wred.get("green_drop_probability").asText());
        assertEquals("ecn_all", wred.get("ecn").asText());
        assertEquals("true", wred.get("wred_green_enable").asText());

        JsonNode queue = db.get("QUEUE");
        assertEquals("roce_ECN_Q3", queue.get("Ethernet16|3").get("wred_profile").asText());
        assertFalse(queue.get("Ethernet16|0").has("wred_profile"));
        assertEquals("FABRICLAB_STRICT", queue.get("Ethernet16|6").get("scheduler").asText());
        assertEquals("FABRICLAB_DWRR_1", queue.get("Ethernet16|3").get("scheduler").asText());
        // 3 ports x 8 queues.
        assertEquals(24, queue.size());
        JsonNode sched = db.get("SCHEDULER");
        assertEquals("STRICT", sched.get("FABRICLAB_STRICT").get("type").asText());
        assertEquals("DWRR", sched.get("FABRICLAB_DWRR_1").get("type").asText());
        assertEquals("1", sched.get("FABRICLAB_DWRR_1").get("weight").asText());
    }

    @Test
    void pfcWatchdogTakesTheDesignedTimeAndAction() throws Exception {
        JsonNode wd = export(ExportFixtures.lab(), "spine1").get("PFC_WD");
        // Spine eth1 -> Ethernet0, eth2 -> Ethernet8; watchdog 200 000 us = 200 ms, action drop.
        assertEquals(List.of("Ethernet0", "Ethernet8"), fieldNames(wd));
        assertEquals("200", wd.get("Ethernet0").get("detection_time").asText());
        assertEquals("200", wd.get("Ethernet0").get("restoration_time").asText());
        assertEquals("drop", wd.get("Ethernet0").get("action").asText());
    }

    @Test
    void portLevelOverrideChangesOnlyThatPort() throws Exception {
        Fabric f = ExportFixtures.lab();
        QosProfile deep = QosProfile.roceLossless("roce-deep", 400)
                .withEcn(new EcnConfig(true, Map.of(3, new WredEcn(1_000_000, 4_000_000, 0.05)), null));
        f.putQosProfile(deep);
        f.port("leaf1:eth2").setQosProfile("roce-deep");
        JsonNode db = export(f, "leaf1");
        JsonNode queue = db.get("QUEUE");
        assertEquals("roce_ECN_Q3", queue.get("Ethernet0|3").get("wred_profile").asText());
        assertEquals("roce-deep_ECN_Q3", queue.get("Ethernet8|3").get("wred_profile").asText());
        assertEquals("roce_ECN_Q3", queue.get("Ethernet16|3").get("wred_profile").asText());
        JsonNode deepWred = db.get("WRED_PROFILE").get("roce-deep_ECN_Q3");
        assertEquals("1000000", deepWred.get("green_min_threshold").asText());
        assertEquals("4000000", deepWred.get("green_max_threshold").asText());
        assertEquals("5", deepWred.get("green_drop_probability").asText());
        assertEquals("pg_lossless_roce-deep_profile", db.get("BUFFER_PG").get("Ethernet8|3").get("profile").asText());
        assertEquals("pg_lossless_roce_profile", db.get("BUFFER_PG").get("Ethernet0|3").get("profile").asText());
        // leaf2 does not use the override at all.
        assertFalse(export(f, "leaf2").get("WRED_PROFILE").has("roce-deep_ECN_Q3"));
    }

    @Test
    void fabricWithoutPfcHasNoPfcEntries() throws Exception {
        JsonNode db = export(ExportFixtures.lab(QosProfile.bestEffort("be")), "leaf1");
        db.get("PORT_QOS_MAP").forEach(p -> assertFalse(p.has("pfc_enable")));
        assertFalse(db.has("PFC_WD"));
        assertFalse(db.has("MAP_PFC_PRIORITY_TO_QUEUE"));
        assertFalse(db.get("BUFFER_POOL").has("egress_lossless_pool"));
        db.get("BUFFER_PROFILE").fieldNames().forEachRemaining(n -> assertFalse(n.contains("lossless_be")));
        db.get("BUFFER_PG").fieldNames().forEachRemaining(n -> assertTrue(n.endsWith("|0"), n));
        assertFalse(db.has("WRED_PROFILE"));
    }

    @Test
    void portWithoutPfcKeepsTheSwitchesLosslessPgLossy() throws Exception {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.bestEffort("be"));
        f.port("leaf1:eth1").setQosProfile("be");
        JsonNode db = export(f, "leaf1");
        assertFalse(db.get("PORT_QOS_MAP").get("Ethernet0").has("pfc_enable"));
        assertEquals("3", db.get("PORT_QOS_MAP").get("Ethernet8").get("pfc_enable").asText());
        assertEquals("ingress_lossy_be_profile", db.get("BUFFER_PG").get("Ethernet0|3").get("profile").asText());
        assertFalse(db.get("PFC_WD").has("Ethernet0"));
        assertTrue(db.get("PFC_WD").has("Ethernet8"));
    }

    @Test
    void twoLosslessPrioritiesShareOneRangeKey() throws Exception {
        QosProfile two = QosProfile.roceLossless("two", 400);
        two = two.withPfc(new PfcConfig(true, Set.of(3, 4), 1_000_000, 800_000, 200_000, 200_000, null));
        JsonNode db = export(ExportFixtures.lab(two), "leaf1");
        assertEquals("3,4", db.get("PORT_QOS_MAP").get("Ethernet0").get("pfc_enable").asText());
        assertEquals("pg_lossless_two_profile", db.get("BUFFER_PG").get("Ethernet0|3-4").get("profile").asText());
        assertTrue(db.get("BUFFER_QUEUE").has("Ethernet0|5-7"));
    }

    @Test
    void pfcOnPriorityZeroIsRefusedBecausePgZeroIsTheLossyOne() {
        QosProfile q = QosProfile.roceLossless("roce", 400)
                .withPfc(new PfcConfig(true, Set.of(0, 3), 1_000_000, 800_000, 200_000, 200_000, null));
        Fabric f = ExportFixtures.lab(q);
        assertThrows(UnexportableQosException.class, () -> new SonicConfigDb().render(f, f.device("leaf1")));
    }

    @Test
    void watchdogOutsideSonicsRangeIsRefused() {
        QosProfile q = QosProfile.roceLossless("roce", 400);
        q = q.withPfc(new PfcConfig(true, Set.of(3), 1_000_000, 800_000, 200_000, 50_000, null));
        Fabric f = ExportFixtures.lab(q);
        UnexportableQosException e = assertThrows(UnexportableQosException.class,
                () -> new SonicConfigDb().render(f, f.device("leaf1")));
        assertTrue(e.getMessage().contains("50 ms"), e.getMessage());
    }

    @Test
    void alphaThatIsNotAPowerOfTwoIsRefused() {
        QosProfile q = QosProfile.roceLossless("roce", 400);
        q = q.withBuffer(new BufferConfig(64L << 20, null, 0, 0.75, 0));
        Fabric f = ExportFixtures.lab(q);
        assertThrows(UnexportableQosException.class, () -> new SonicConfigDb().render(f, f.device("leaf1")));
    }

    @Test
    void staticBufferModeWritesStaticThresholds() throws Exception {
        QosProfile q = QosProfile.roceLossless("roce", 400)
                .withBuffer(new BufferConfig(32_000_000, BufferConfig.ThresholdMode.STATIC,
                        2_000_000, 1, 1518));
        JsonNode db = export(ExportFixtures.lab(q), "leaf1");
        assertEquals("static", db.get("BUFFER_POOL").get("egress_lossy_pool").get("mode").asText());
        JsonNode lossy = db.get("BUFFER_PROFILE").get("egress_lossy_roce_profile");
        assertEquals("2000000", lossy.get("static_th").asText());
        assertEquals("1518", lossy.get("size").asText());
        assertFalse(lossy.has("dynamic_th"));
        // The lossless PG stops at the design's XOFF (1 MB in roceLossless) and then pauses.
        assertEquals("1000000", db.get("BUFFER_PROFILE").get("pg_lossless_roce_profile").get("static_th").asText());
    }

    /** Every name an entry refers to (pool, profile, scheduler, map) is defined in this file. */
    @Test
    void everyReferenceResolvesWithinTheFile() throws Exception {
        Fabric f = ExportFixtures.lab();
        f.putQosProfile(QosProfile.bestEffort("be"));
        f.putQosProfile(QosProfile.roceLossless("roce-100g", 100));
        f.port("leaf1:eth1").setQosProfile("be");
        f.port("leaf1:eth2").setQosProfile("roce-100g");
        for (String sw : List.of("leaf1", "leaf2", "spine1")) {
            JsonNode db = export(f, sw);
            JsonNode pools = db.get("BUFFER_POOL");
            db.get("BUFFER_PROFILE").forEach(p -> assertTrue(pools.has(p.get("pool").asText()), p.toString()));
            for (String table : List.of("BUFFER_PG", "BUFFER_QUEUE")) {
                db.get(table).forEach(e -> assertTrue(db.get("BUFFER_PROFILE").has(e.get("profile").asText()), e.toString()));
            }
            db.get("QUEUE").forEach(q -> {
                assertTrue(db.get("SCHEDULER").has(q.get("scheduler").asText()), q.toString());
                if (q.has("wred_profile")) {
                    assertTrue(db.get("WRED_PROFILE").has(q.get("wred_profile").asText()), q.toString());
                }
            });
            Map<String, String> mapTables = Map.of("dscp_to_tc_map", "DSCP_TO_TC_MAP", "tc_to_pg_map",
                    "TC_TO_PRIORITY_GROUP_MAP", "tc_to_queue_map", "TC_TO_QUEUE_MAP", "pfc_to_queue_map",
                    "MAP_PFC_PRIORITY_TO_QUEUE");
            db.get("PORT_QOS_MAP").forEach(pq -> mapTables.forEach((field, table) -> {
                if (pq.has(field)) {
                    assertTrue(db.get(table).has(pq.get(field).asText()), field);
                }
            }));
            // Every port in a QoS table is a port of the PORT table, and every port has 8 queues.
            List<String> ports = fieldNames(db.get("PORT"));
            for (String table : List.of("PORT_QOS_MAP", "BUFFER_PG", "BUFFER_QUEUE", "QUEUE", "PFC_WD")) {
                db.get(table).fieldNames().forEachRemaining(k -> assertTrue(ports.contains(k.split("\\|")[0]), table + " " + k));
            }
            assertEquals(8 * ports.size(), db.get("QUEUE").size());
        }
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> l = new ArrayList<>();
        n.fieldNames().forEachRemaining(l::add);
        return l;
    }
}
