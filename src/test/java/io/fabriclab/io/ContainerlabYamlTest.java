package io.fabriclab.io;

import static io.fabriclab.io.FabricAssertions.assertSameFabric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.fabriclab.model.CableType;
import io.fabriclab.model.Device;
import io.fabriclab.model.DeviceRole;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.LinkState;

class ContainerlabYamlTest {

    /** A lab as people write them: SR Linux switches, Linux clients, an unknown kind, extra node attributes. */
    static final String HAND_WRITTEN = """
            name: srl-clos
            mgmt:
              network: clab-mgmt
            topology:
              defaults:
                kind: nokia_srlinux
              kinds:
                nokia_srlinux:
                  image: ghcr.io/nokia/srlinux:24.10
              nodes:
                spine1:
                  type: ixrd3l
                leaf1:
                  startup-config: configs/leaf1.cfg
                  labels:
                    owner: netops
                leaf2:
                  labels:
                    topoViewer-role: leaf
                fw1:
                  kind: fortinet_fortigate
                  image: fortigate:7.0
                client1:
                  kind: linux
                  image: ghcr.io/srl-labs/network-multitool
                  binds:
                    - /tmp/data:/data
                  exec: ["ip link set eth1 up"]
              links:
                - endpoints: ["leaf1:e1-49", "spine1:e1-1"]
                - endpoints: ["leaf2:e1-49", "spine1:e1-2"]
                - endpoints: ["client1:eth1", "leaf1:e1-1"]
                - type: veth
                  endpoints:
                    - node: client1
                      interface: eth2
                    - node: leaf2
                      interface: e1-1
                - endpoints: ["fw1:port1", "spine1:e1-3"]
            """;

    @Test
    void importInfersRolesFromKindsNamesAndTopoViewerLabels() throws Exception {
        Fabric f = ContainerlabYaml.read(HAND_WRITTEN, "srl-clos.clab.yml");
        assertEquals("srl-clos", f.name());
        assertEquals(DeviceRole.SPINE, f.device("spine1").role(), "switch kind, name contains spine");
        assertEquals(DeviceRole.LEAF, f.device("leaf1").role());
        assertEquals(DeviceRole.LEAF, f.device("leaf2").role(), "topoViewer-role: leaf");
        assertEquals(DeviceRole.SERVER, f.device("client1").role(), "kind linux is a host");
        assertEquals(DeviceRole.LEAF, f.device("fw1").role(), "an unknown kind is a switch of the lowest tier");
        assertEquals(5, f.linkCount());
        // Ports come from the endpoints; server interfaces are NICs numbered in link order.
        assertEquals(List.of("e1-49", "e1-1"), f.device("leaf1").ports().stream().map(p -> p.name()).toList());
        assertEquals(0, f.port("client1:eth1").nic());
        assertEquals(1, f.port("client1:eth2").nic());
        assertEquals(2, f.device("client1").gpus(), "one GPU per NIC");
        assertEquals(ContainerlabYaml.DEFAULT_PORT_SPEED_GBPS, f.port("spine1:e1-3").speedGbps());
        assertEquals(CableType.DAC, f.link("leaf1:e1-49--spine1:e1-1").cableType(), "default 1 m is DAC reach");
    }

    @Test
    void unknownKindsAndNodeAttributesAreKeptAndWrittenBack() throws Exception {
        Fabric f = ContainerlabYaml.read(HAND_WRITTEN, "srl-clos.clab.yml");
        Device fw = f.device("fw1");
        assertEquals("fortinet_fortigate", fw.labels().get("clab-kind"));
        assertEquals("fortigate:7.0", fw.labels().get("clab-image"));
        assertEquals("nokia_srlinux", f.device("spine1").labels().get("clab-kind"), "from topology.defaults");
        assertEquals("ghcr.io/nokia/srlinux:24.10", f.device("spine1").labels().get("clab-image"), "from topology.kinds");
        assertEquals("ixrd3l", f.device("spine1").labels().get("clab-type"));
        assertEquals("netops", f.device("leaf1").labels().get("owner"));

        JsonNode out = new YAMLMapper().readTree(ContainerlabYaml.write(f));
        JsonNode nodes = out.path("topology").path("nodes");
        assertEquals("fortinet_fortigate", nodes.path("fw1").path("kind").asText());
        assertEquals("fortigate:7.0", nodes.path("fw1").path("image").asText());
        assertEquals("configs/leaf1.cfg", nodes.path("leaf1").path("startup-config").asText());
        assertEquals("/tmp/data:/data", nodes.path("client1").path("binds").path(0).asText(), "a list stays a list");
        assertEquals("ip link set eth1 up", nodes.path("client1").path("exec").path(0).asText());
        assertEquals("netops", nodes.path("leaf1").path("labels").path("owner").asText());
        assertEquals("spine", nodes.path("spine1").path("labels").path("fabriclab-role").asText());
        assertEquals("spine", nodes.path("spine1").path("labels").path("topoViewer-role").asText());
        assertEquals("2", nodes.path("spine1").path("labels").path("graph-level").asText(), "core 1, spine 2, leaf 3, server 4");
        // Links in containerlab's extended form (type veth, endpoint objects), where its schema allows labels.
        JsonNode end = out.path("topology").path("links").path(0).path("endpoints").path(0);
        assertEquals("leaf1:e1-49", end.path("node").asText() + ":" + end.path("interface").asText());
        assertEquals("veth", out.path("topology").path("links").path(0).path("type").asText());
    }

    @Test
    void exportThenImportKeepsDevicesPortsAndLinks() throws Exception {
        Fabric f = SampleFabrics.everyField();
        Fabric back = ContainerlabYaml.read(ContainerlabYaml.write(f), "lab.clab.yml");
        // containerlab has no place for QoS profiles, descriptions or the MTU; everything else survives.
        assertSameFabric(f, back, false, false);
        assertEquals(LinkState.DOWN, back.link("leaf2:eth5--spine1:eth3").state());
        assertEquals(CableType.AOC, back.link("leaf1:eth5--spine1:eth1").cableType());
        assertEquals(8, back.device("gpu2").gpus());
        assertEquals("sonic-vs", back.device("leaf1").labels().get("clab-kind"));
    }

    @Test
    void positionsTravelInTheTopoViewerAnnotationsSideFile(@TempDir Path dir) throws Exception {
        Fabric f = SampleFabrics.everyField();
        Path topo = dir.resolve("lab.clab.yml");
        Path ann = dir.resolve("lab.clab.yml.annotations.json");
        Files.writeString(ann, "{\"freeTextAnnotations\": [{\"id\": \"t1\", \"text\": \"rack A\"}], \"nodeAnnotations\": []}");
        ContainerlabYaml.save(f, topo);
        assertEquals(ann, ContainerlabYaml.annotationsPath(topo));
        JsonNode a = new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readString(ann));
        assertEquals("rack A", a.path("freeTextAnnotations").path(0).path("text").asText(), "other annotations kept");
        assertEquals("spine1", a.path("nodeAnnotations").path(0).path("id").asText());
        assertEquals(100.0, a.path("nodeAnnotations").path(0).path("position").path("x").asDouble());
        Fabric back = ContainerlabYaml.read(topo);
        assertEquals(f.layout().positions(), back.layout().positions());
    }

    @Test
    void noAnnotationsFileWithoutALayout(@TempDir Path dir) throws Exception {
        Fabric f = SampleFabrics.everyField();
        f.layout().positions().clear();
        assertNull(ContainerlabYaml.writeAnnotations(f));
        ContainerlabYaml.save(f, dir.resolve("x.clab.yaml"));
        assertTrue(Files.notExists(dir.resolve("x.clab.yaml.annotations.json")));
    }

    @Test
    void missingOrMalformedEndpointsNameTheLinkAndTheExpectedForm() {
        String yaml = """
                name: bad
                topology:
                  nodes:
                    a: {kind: linux}
                    b: {kind: linux}
                  links:
                    - {}
                    - endpoints: ["a:eth1"]
                    - endpoints: ["a-eth1", "b:eth1"]
                    - endpoints: ["a:eth2", "c:eth1"]
                """;
        InputException e = assertThrows(InputException.class, () -> ContainerlabYaml.read(yaml, "bad.clab.yml"));
        List<String> lines = e.getMessage().lines().toList();
        assertEquals(4, lines.size(), e.getMessage());
        assertTrue(lines.get(0).startsWith("bad.clab.yml: $.topology.links[0].endpoints: link has no endpoints; allowed: endpoints: ["), lines.get(0));
        assertTrue(lines.get(1).startsWith("bad.clab.yml: $.topology.links[1].endpoints: a link needs exactly two endpoints"), lines.get(1));
        assertTrue(lines.get(2).startsWith("bad.clab.yml: $.topology.links[2].endpoints[0]: bad endpoint syntax"), lines.get(2));
        assertTrue(lines.get(3).startsWith("bad.clab.yml: $.topology.links[3].endpoints[1]: no node \"c\""), lines.get(3));
    }

    @Test
    void portNamesWithTheLabelSeparatorsSurviveTheRoundTrip() throws Exception {
        Fabric f = new Fabric("odd-ports");
        Device a = f.addDevice("a", DeviceRole.LEAF);
        a.addPort("Ethernet1/1", 400);
        a.addPort("e1,1=x%2C", 100);
        Device b = f.addDevice("b", DeviceRole.SPINE);
        b.addPort("Ethernet1/1", 400);
        f.connect(a.port("Ethernet1/1"), b.port("Ethernet1/1"), 400, 5);
        assertEquals("Ethernet1/1=400G,e1%2C1%3Dx%252C=100G", ContainerlabYaml.portsLabel(a));
        Fabric back = ContainerlabYaml.read(ContainerlabYaml.write(f), "odd.clab.yml");
        assertSameFabric(f, back, false, false);
    }

    @Test
    void derivedLabelsWinOverDeviceLabelsOfTheSameName() throws Exception {
        Fabric f = new Fabric("t");
        Device s = f.addDevice("s1", DeviceRole.SPINE);
        s.labels().put("graph-level", "9");
        s.labels().put("rack", "B2");
        JsonNode node = new YAMLMapper().readTree(ContainerlabYaml.write(f)).path("topology").path("nodes").path("s1");
        assertEquals("2", node.path("labels").path("graph-level").asText());
        assertEquals("B2", node.path("labels").path("rack").asText());
    }

    @Test
    void numericAndBooleanNodeFieldsStayNumbersAndBooleans() throws Exception {
        String yaml = """
                name: t
                topology:
                  nodes:
                    h1: {kind: linux, cpu: 1.5, memory-gb: 2, auto-remove: true, mgmt-ipv4: 172.20.20.11}
                """;
        Fabric f = ContainerlabYaml.read(yaml, "t.clab.yml");
        assertEquals("1.5", f.device("h1").labels().get("clab-cpu"));
        JsonNode h1 = new YAMLMapper().readTree(ContainerlabYaml.write(f)).path("topology").path("nodes").path("h1");
        assertTrue(h1.path("cpu").isDouble(), h1.toString());
        assertTrue(h1.path("memory-gb").isInt(), h1.toString());
        assertTrue(h1.path("auto-remove").isBoolean(), h1.toString());
        assertTrue(h1.path("mgmt-ipv4").isTextual(), "an address is not a number");
    }
}
