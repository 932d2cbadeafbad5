package io.fabriclab.cli;

import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Version;
import io.fabriclab.routing.EcmpPathCounter;
import io.fabriclab.routing.NicPairClass;
import io.fabriclab.topology.BillOfMaterials;
import io.fabriclab.topology.DeadlockCheck;
import io.fabriclab.topology.FabricAnalysis;
import io.fabriclab.topology.FailureImpact;
import io.fabriclab.topology.Finding;
import io.fabriclab.topology.HeadroomCalculator;
import io.fabriclab.topology.Oversubscription;

/**
 * The stable `analyze --json` document (schema in docs/cli.md). Field names carry units; ratios
 * that are infinite (no uplink) are written as null with a note.
 */
final class AnalysisJson {
    static final int SCHEMA_VERSION = 1;
    private static final ObjectMapper MAPPER = io.fabriclab.io.JsonInput.writingMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AnalysisJson() {
    }

    static String render(Fabric fabric, String file, FabricAnalysis a, int worstFailures) throws Exception {
        return render(fabric, file, a, worstFailures, AnalyzeCommand.creditLoopsByEngine(fabric));
    }

    /** As above, with the credit loops already checked (analyze shows its progress through them). */
    static String render(Fabric fabric, String file, FabricAnalysis a, int worstFailures,
                         java.util.List<AnalyzeCommand.CreditLoops> loops) throws Exception {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("fabriclabVersion", Version.get());
        root.put("fabric", fabric.name());
        root.put("file", file);
        root.set("counts", counts(a.counts()));
        root.set("oversubscription", oversubscription(a.oversubscription()));
        ObjectNode bis = root.putObject("bisection");
        bis.put("bandwidthGbps", a.bisection().bandwidthGbps());
        bis.put("fullBisectionGbps", a.bisection().idealGbps());
        number(bis, "ratio", a.bisection().ratio());
        root.set("ecmpPaths", ecmp(a.ecmp()));
        ObjectNode eff = root.putObject("payloadEfficiency");
        for (io.fabriclab.model.Transport t : io.fabriclab.model.Transport.values()) {
            try {
                int payload = AnalyzeCommand.payloadBytes(t, fabric.mtuBytes());
                io.fabriclab.sim.TransportProfile p = io.fabriclab.sim.TransportProfile.of(t);
                ObjectNode x = eff.putObject(t.jsonName());
                x.put("payloadBytes", payload);
                x.put("dataOnly", p.payloadEfficiency(payload));
                x.put("ringDirection", p.ringPayloadEfficiency(payload));
            } catch (IllegalArgumentException e) {
                eff.putNull(t.jsonName());
            }
        }
        com.fasterxml.jackson.databind.node.ArrayNode lat = root.putArray("switchLatency");
        for (io.fabriclab.topology.FabricSwitchLatency.ModelLatency m : io.fabriclab.topology.FabricSwitchLatency.of(fabric)) {
            ObjectNode o = lat.addObject();
            o.put("model", m.model());
            o.put("switches", m.switches());
            ObjectNode by = o.putObject("byTransport");
            for (io.fabriclab.model.Transport t : io.fabriclab.model.Transport.values()) {
                io.fabriclab.model.SwitchLatency.SwitchClass c = m.byTransport().get(t.ordinal());
                ObjectNode x = by.putObject(t.jsonName());
                x.put("portToPortNs", m.portToPortPs(t) / 1000.0);
                x.put("source", m.source(t));
                x.put("forwarding", c.forwarding() == io.fabriclab.model.SwitchLatency.Forwarding.CUT_THROUGH
                        ? "cut-through" : "store-and-forward");
            }
        }
        ObjectNode hops = root.putObject("hops");
        hops.put("diameter", a.hops().diameter());
        hops.put("mean", a.hops().mean());
        hops.put("unreachableNicPairs", a.hops().unreachablePairs());
        ObjectNode hh = hops.putObject("histogram");
        a.hops().histogram().forEach((k, v) -> hh.put(String.valueOf(k), v));
        root.set("billOfMaterials", bom(a.billOfMaterials()));
        if (a.failureImpact() != null) {
            ObjectNode fi = root.putObject("failureImpact");
            fi.put("elementsAnalysed", a.failureImpact().items().size());
            fi.put("elementsDisconnectingPairs",
                    a.failureImpact().items().stream().filter(i -> i.nicPairsDisconnected() > 0).count());
            ArrayNode worst = fi.putArray("worst");
            a.failureImpact().ranked().stream().limit(worstFailures).forEach(i -> worst.add(failureItem(i)));
        }
        root.set("pfcHeadroom", headroom(fabric, a));
        root.set("deadlock", deadlock(a.deadlock()));
        root.set("ibCreditLoops", creditLoops(loops));
        if (a.failure() != null) {
            FailureImpact.Detail d = a.failure().detail();
            ObjectNode f = root.putObject("failure");
            f.put("failed", a.failure().spec());
            f.put("capacityLostGbps", d.capacityLostGbps());
            f.put("nicPairsDisconnected", d.nicPairsDisconnected());
            f.put("worstPathDropFraction", d.worstDropFraction());
            f.put("pairsChanged", d.changedPairs().size());
        }
        ArrayNode findings = root.putArray("findings");
        for (Finding f : a.findings()) {
            ObjectNode o = findings.addObject();
            o.put("severity", f.severity().name().toLowerCase(java.util.Locale.ROOT));
            o.put("code", f.code());
            o.put("subject", f.subject());
            o.put("message", f.message());
            o.put("fix", f.fix());
        }
        return MAPPER.writeValueAsString(root) + "\n";
    }

    /**
     * InfiniBand credit loops per subnet-manager routing engine, the figures of the text output's
     * table (docs/model.md, Credit-loop deadlock): on one data VL, the cycles of credit dependencies
     * (how many, and the first as channels "from->to"), and the VLs the engine's routes need for the
     * escape at down-up turns.
     */
    private static ArrayNode creditLoops(java.util.List<AnalyzeCommand.CreditLoops> loops) {
        ArrayNode out = MAPPER.createArrayNode();
        for (AnalyzeCommand.CreditLoops c : loops) {
            io.fabriclab.topology.CreditLoopCheck.Result r = c.result();
            ObjectNode o = out.addObject();
            o.put("engine", c.engine().jsonName());
            o.put("engineUsed", r.engine().jsonName());
            o.put("dataVls", r.dataVls());
            o.put("creditLoops", r.cycles().size());
            o.put("deadlockFree", r.deadlockFree());
            o.put("vlsNeeded", r.vlsNeeded());
            if (r.cycles().isEmpty()) {
                o.putNull("exampleLoop");
            } else {
                ArrayNode loop = o.putArray("exampleLoop");
                r.cycles().get(0).forEach(loop::add);
            }
        }
        return out;
    }

    /** Every lossless port by class (its need, terms and margin), and the ports that fall short. */
    private static ObjectNode headroom(Fabric fabric, FabricAnalysis a) {
        ObjectNode head = MAPPER.createObjectNode();
        head.put("portsChecked", a.headroom().size());
        head.put("mtuBytes", fabric.mtuBytes());
        ArrayNode classes = head.putArray("classes");
        for (HeadroomCalculator.PortClass c : HeadroomCalculator.classes(a.headroom())) {
            HeadroomCalculator.Requirement r = c.required();
            io.fabriclab.model.PhyTiming t = HeadroomCalculator.timing(r.speedGbps());
            ObjectNode o = classes.addObject();
            o.put("qosProfile", c.qosProfile());
            o.put("speedGbps", r.speedGbps());
            o.put("cableLengthM", r.cableLengthM());
            o.put("portCount", c.ports().size());
            o.put("requiredBytes", r.totalBytes());
            o.put("configuredBytes", c.configuredBytes());
            o.put("marginBytes", c.marginBytes());
            ObjectNode terms = o.putObject("terms");
            terms.put("receiverFrameBytes", r.receiverFrameBytes());
            terms.put("pfcFrameBytes", r.pfcFrameBytes());
            terms.put("cableBytes", r.cableBytes());
            terms.put("interfaceBytes", r.interfaceBytes());
            terms.put("peerResponseBytes", r.peerResponseBytes());
            terms.put("senderFrameBytes", r.senderFrameBytes());
            o.put("interfaceDelayBitsPerEnd", t.interfaceDelayBits());
            o.put("responseQuanta", t.responseQuanta());
            o.put("interfaceSource", r.interfaceSource());
            o.put("extrapolated", r.extrapolated());
            ArrayNode ports = o.putArray("ports");
            c.ports().forEach(ports::add);
        }
        ArrayNode short_ = head.putArray("shortfalls");
        a.headroom().stream().filter(HeadroomCalculator.PortHeadroom::shortfall).forEach(h -> {
            ObjectNode o = short_.addObject();
            o.put("port", h.port());
            o.put("qosProfile", h.qosProfile());
            o.put("requiredBytes", h.required().totalBytes());
            o.put("configuredBytes", h.configuredBytes());
        });
        return head;
    }

    private static ObjectNode counts(FabricAnalysis.Counts c) {
        ObjectNode o = MAPPER.createObjectNode();
        ObjectNode sw = o.putObject("switches");
        for (DeviceRole r : DeviceRole.values()) {
            if (r.isSwitch()) {
                sw.put(r.jsonName(), c.switchesByRole().getOrDefault(r, 0));
            }
        }
        sw.put("total", c.switches());
        o.put("servers", c.servers());
        o.put("gpus", c.gpus());
        o.put("nics", c.nics());
        o.put("links", c.links());
        o.put("linksDown", c.linksDown());
        ObjectNode cables = o.putObject("cablesByTier");
        c.cablesByTier().forEach(cables::put);
        return o;
    }

    private static ObjectNode oversubscription(Oversubscription ov) {
        ObjectNode o = MAPPER.createObjectNode();
        if (ov.worstLeaf() != null) {
            ObjectNode w = o.putObject("worstLeaf");
            w.put("device", ov.worstLeaf().deviceId());
            number(w, "ratio", ov.worstLeaf().ratio());
            w.put("label", ov.worstLeaf().label());
        } else {
            o.putNull("worstLeaf");
        }
        ArrayNode tiers = o.putArray("tiers");
        for (Oversubscription.TierRatio t : ov.tiers()) {
            ObjectNode n = tiers.addObject();
            n.put("tier", t.tier());
            n.put("downGbps", t.downGbps());
            n.put("upGbps", t.upGbps());
            number(n, "ratio", t.ratio());
            n.put("label", t.label());
        }
        return o;
    }

    private static ObjectNode ecmp(EcmpPathCounter.Statistics s) {
        ObjectNode o = summary(s.all());
        ObjectNode by = o.putObject("byPairClass");
        for (Map.Entry<NicPairClass, EcmpPathCounter.Summary> e : s.byClass().entrySet()) {
            by.set(e.getKey().name().toLowerCase(java.util.Locale.ROOT), summary(e.getValue()));
        }
        return o;
    }

    private static ObjectNode summary(EcmpPathCounter.Summary s) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("nicPairs", s.nicPairs());
        o.put("unreachablePairs", s.unreachablePairs());
        o.put("min", s.min());
        o.put("max", s.max());
        o.put("mean", s.mean());
        ObjectNode h = o.putObject("histogram");
        s.histogram().forEach((k, v) -> h.put(String.valueOf(k), v));
        return o;
    }

    private static ObjectNode bom(BillOfMaterials b) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("currency", b.currency());
        o.put("total", b.total());
        o.put("complete", b.complete());
        ArrayNode lines = o.putArray("lines");
        for (BillOfMaterials.Line l : b.lines()) {
            ObjectNode n = lines.addObject();
            n.put("category", l.category().name().toLowerCase(java.util.Locale.ROOT));
            n.put("item", l.description());
            n.put("priceKey", l.priceKey());
            n.put("quantity", l.quantity());
            n.put("unit", l.unit());
            if (l.priced()) {
                n.put("unitPrice", l.unitPrice());
                n.put("cost", l.cost());
            } else {
                n.putNull("unitPrice");
                n.putNull("cost");
            }
        }
        ArrayNode un = o.putArray("unpriced");
        b.unpriced().forEach(un::add);
        ArrayNode servers = o.putArray("serverModels");
        for (BillOfMaterials.ServerModel m : b.serverModels()) {
            ObjectNode n = servers.addObject();
            n.put("model", m.model());
            n.put("count", m.count());
            n.put("gpusPerServer", m.gpusPerServer());
            n.put("gpu", m.scaleUp().gpu());
            n.put("scaleUp", m.scaleUp().technology());
            n.put("bandwidthGBpsPerGpuEachWay", m.scaleUp().bandwidthGBps());
            n.put("latencyNs", m.scaleUp().latencyNs());
            n.put("declared", m.declared());
            n.put("text", m.describe());
        }
        return o;
    }

    private static ObjectNode failureItem(FailureImpact.Item i) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("kind", i.kind().name().toLowerCase(java.util.Locale.ROOT));
        o.put("subject", i.subject());
        o.put("capacityLostGbps", i.capacityLostGbps());
        o.put("nicPairsDisconnected", i.nicPairsDisconnected());
        o.put("worstPathDropFraction", i.worstDropFraction());
        if (i.worstPair() != null) {
            ObjectNode w = o.putObject("worstPair");
            w.put("fromSwitch", i.worstPair().fromSwitch());
            w.put("toSwitch", i.worstPair().toSwitch());
            w.put("pathsBefore", i.worstPair().pathsBefore());
            w.put("pathsAfter", i.worstPair().pathsAfter());
        }
        return o;
    }

    private static ObjectNode deadlock(DeadlockCheck.Result r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("failure", r.failure());
        o.put("dependencies", r.dependencies());
        o.put("deadlockFree", r.deadlockFree());
        ArrayNode cycles = o.putArray("cycles");
        for (DeadlockCheck.Cycle c : r.cycles()) {
            ObjectNode n = cycles.addObject();
            n.put("priority", c.priority());
            ArrayNode sw = n.putArray("switches");
            c.switches().forEach(sw::add);
            ArrayNode q = n.putArray("ingressQueues");
            c.queues().forEach(x -> q.add(x.toString()));
        }
        return o;
    }

    private static void number(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        } else {
            o.putNull(field);
        }
    }
}
