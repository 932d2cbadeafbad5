#!/usr/bin/env python3
"""Writes the SAMPLE counters files of this folder (see README.md): made-up figures in the real
formats, for resources/examples/classic-leaf-spine.json running an 8:1 incast to server01.
Run from this folder: python3 make-samples.py"""
import json, os

T0 = 1764324000  # 2025-11-28T10:00:00Z, seconds
DT = 10          # seconds between the two samples
LEAVES = ["leaf1", "leaf2", "leaf3", "leaf4"]
SPINES = ["spine1", "spine2"]
SENDERS = ["server02", "server03", "server09", "server10", "server17", "server18", "server25", "server26"]

def leaf_if(k):  # drawing eth k -> SONiC name
    return "Ethernet%d" % (4 * (k - 1)) if k <= 8 else "Ethernet%d" % (32 + 8 * (k - 9))
def spine_if(k):
    return "Ethernet%d" % (8 * (k - 1))

# Per-second rates and t0 totals per (device, drawing port): what the samples say happened.
rate = {}   # (dev, k) -> dict
def r(dev, k, **kw):
    rate.setdefault((dev, k), {}).update(kw)
for dev in LEAVES:
    for k in range(1, 11):
        r(dev, k, tx_bytes=0.9e9 if k <= 8 else 1.4e9, tx_pkts=0.9e9 / 4200 if k <= 8 else 1.4e9 / 4200)
# leaf1:eth1 feeds the incast receiver: deep queue, ECN marks, a few drops on the lossless class (the anomaly).
r("leaf1", 1, tx_bytes=11.6e9, tx_pkts=11.6e9 / 4200, ecn=42000, drops3=3, wm3=1450000)
for k in (2, 3):   # local senders paused by leaf1
    r("leaf1", k, pfc_tx3=800, wm3=60000)
r("leaf1", 9, pfc_tx3=1500, wm3=220000)
r("leaf1", 10, pfc_tx3=1400, wm3=210000)
# leaf2's two senders hash onto the same uplink (ECMP imbalance).
r("leaf2", 9, tx_bytes=11.0e9, tx_pkts=11.0e9 / 4200, wm3=380000, ecn=900, pfc_rx3=300)
r("leaf2", 10, tx_bytes=1.2e9, tx_pkts=1.2e9 / 4200, pfc_rx3=280)
r("leaf3", 9, pfc_rx3=260, wm3=150000)
r("leaf3", 10, pfc_rx3=250)
r("leaf3", 3, pfc_rx0=5)  # pauses on priority 0, which the drawing does not make lossless
r("leaf4", 9, pfc_rx3=240)
r("leaf4", 10, pfc_rx3=230)
for dev in SPINES:
    for k in range(1, 5):
        r(dev, k, tx_bytes=2.5e9, tx_pkts=2.5e9 / 4200)
r("spine1", 1, pfc_rx3=1500, wm3=900000, ecn=6000, tx_bytes=5.6e9)
r("spine2", 1, pfc_rx3=1400, wm3=850000, ecn=5500, tx_bytes=5.4e9)
for k in (2, 3, 4):
    r("spine1", k, pfc_tx3=[300, 260, 240][k - 2])
    r("spine2", k, pfc_tx3=[280, 250, 230][k - 2])

def total(dev, k, key, t, base=1000):
    v = rate.get((dev, k), {}).get(key, 0)
    seed = (sum(map(ord, dev)) * 31 + k * 17 + len(key) * 7) % 97
    start = int(v * 3600) + seed * base if v else 0  # counters have run for an hour before t0
    return int(start + v * DT * t)

def commas(n):
    return "{:,}".format(n)

def table(header, rows):
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    out = ["  ".join(h.rjust(w) for h, w in zip(header, widths)), "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(out)

def sonic_show(dev, t):
    ks = range(1, 11) if dev.startswith("leaf") else range(1, 5)
    name = leaf_if if dev.startswith("leaf") else spine_if
    out = ["# time: %s" % iso(t), "# SAMPLE: made-up figures in the format of SONiC's show commands (see README.md)",
           "admin@%s:~$ show pfc counters" % dev]
    for d in ("Rx", "Tx"):
        rows = [[name(k)] + [commas(total(dev, k, "pfc_%s%d" % (d.lower(), p), t)) for p in range(8)] for k in ks]
        out += [table(["Port " + d] + ["PFC%d" % p for p in range(8)], rows), ""]
    out += ["admin@%s:~$ show queue counters" % dev]
    rows = []
    for k in ks:
        for q in range(8):
            share = 1.0 if q == 3 else 0.0
            tb = int(total(dev, k, "tx_bytes", t) * share)
            tp = int(total(dev, k, "tx_pkts", t) * share)
            rows.append([name(k), "UC%d" % q, commas(tp), commas(tb), commas(total(dev, k, "drops%d" % q, t)),
                         commas(total(dev, k, "drops%d" % q, t) * 4200), commas(total(dev, k, "ecn", t) if q == 3 else 0),
                         commas((total(dev, k, "ecn", t) if q == 3 else 0) * 4200)])
    out += [table(["Port", "TxQ", "Counter/pkts", "Counter/bytes", "Drop/pkts", "Drop/bytes", "EcnMarked/pkts",
                   "EcnMarked/bytes"], rows), ""]
    out += ["admin@%s:~$ show priority-group watermark shared" % dev, "Ingress shared pool occupancy per PG:"]
    rows = [[name(k)] + [commas(int(rate.get((dev, k), {}).get("wm3", 0) * 0.6) if p == 3 else 0) for p in range(8)] for k in ks]
    out += [table(["Port"] + ["PG%d" % p for p in range(8)], rows), ""]
    out += ["admin@%s:~$ show queue watermark unicast" % dev, "Egress shared pool occupancy per unicast queue:"]
    rows = [[name(k)] + [commas(int(rate.get((dev, k), {}).get("wm3", 0)) if q == 3 else (0 if t == 0 else 4096)) for q in range(8)] for k in ks]
    out += [table(["Port"] + ["UC%d" % q for q in range(8)], rows), ""]
    return "\n".join(out)

def portstat(dev, t):
    ks = range(1, 11) if dev.startswith("leaf") else range(1, 5)
    name = leaf_if if dev.startswith("leaf") else spine_if
    out = {}
    for k in ks:
        tx = total(dev, k, "tx_pkts", t)
        drops = sum(total(dev, k, "drops%d" % q, t) for q in range(8))
        if dev == "leaf2" and k == 2 and t == 1:
            tx, drops = tx // 50, 0  # counters cleared between the samples (`sonic-clear counters`): a reset
        out[name(k)] = {"STATE": "U", "RX_OK": commas(tx), "RX_BPS": "N/A", "RX_UTIL": "N/A", "RX_ERR": "0",
                        "RX_DRP": "0", "RX_OVR": "0", "TX_OK": commas(tx), "TX_BPS": "N/A", "TX_UTIL": "N/A",
                        "TX_ERR": "0", "TX_DRP": commas(drops), "TX_OVR": "0"}
    out["time"] = iso(t)
    return json.dumps(out, indent=4)

NIC = {"server01": dict(ecn=42000, cnp_sent=18000, rx_bytes=11.5e9)}
for s in SENDERS:
    NIC[s] = dict(cnp_handled=2250, tx_bytes=1.43e9)
for s in ("server02", "server03"):
    NIC[s].update(pause=800, pause_us=310000)

def nic_total(dev, key, t):
    v = NIC.get(dev, {}).get(key, 0)
    return int(v * 3600 + v * DT * t)

def ethtool(dev, t):
    lines = ["# time: %s" % iso(t), "# SAMPLE: made-up figures in the format of ethtool -S on an mlx5 NIC (see README.md)",
             "NIC statistics:", "     rx_packets: %d" % (nic_total(dev, "rx_bytes", t) // 4200),
             "     tx_packets: %d" % (nic_total(dev, "tx_bytes", t) // 4200),
             "     rx_bytes_phy: %d" % nic_total(dev, "rx_bytes", t), "     tx_bytes_phy: %d" % nic_total(dev, "tx_bytes", t),
             "     rx_discards_phy: 0", "     tx_discards_phy: 0", "     rx_out_of_buffer: 0"]
    for p in range(8):
        lines += ["     rx_prio%d_bytes: %d" % (p, nic_total(dev, "rx_bytes", t) if p == 3 else 0),
                  "     rx_prio%d_pause: %d" % (p, nic_total(dev, "pause", t) if p == 3 else 0),
                  "     rx_prio%d_pause_duration: %d" % (p, nic_total(dev, "pause_us", t) if p == 3 else 0),
                  "     tx_prio%d_pause: 0" % p, "     tx_prio%d_pause_duration: 0" % p]
    lines += ["     np_cnp_sent: %d" % nic_total(dev, "cnp_sent", t), "     rp_cnp_handled: %d" % nic_total(dev, "cnp_handled", t),
              "     np_ecn_marked_roce_packets: %d" % nic_total(dev, "ecn", t), "     ch0_arm: 0"]
    return "\n".join(lines) + "\n"

HW = [("np_cnp_sent", "cnp_sent"), ("np_ecn_marked_roce_packets", "ecn"), ("rp_cnp_handled", "cnp_handled"),
      ("rp_cnp_ignored", None), ("out_of_buffer", None), ("out_of_sequence", None), ("local_ack_timeout_err", None)]

def iso(t):
    import datetime
    return datetime.datetime.fromtimestamp(T0 + DT * t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

def prometheus(t):
    ms = (T0 + DT * t) * 1000
    out = ["# SAMPLE: made-up figures in the Prometheus text format, as a switch and a host exporter publish them (see README.md)"]
    fams = [("sonic_pfc_rx_frames_total", "counter", "PFC frames received per priority", "pfc_rx"),
            ("sonic_pfc_tx_frames_total", "counter", "PFC frames sent per priority", "pfc_tx")]
    for fam, typ, help_, key in fams:
        out += ["# HELP %s %s" % (fam, help_), "# TYPE %s %s" % (fam, typ)]
        for dev in LEAVES + SPINES:
            for k in (range(1, 11) if dev.startswith("leaf") else range(1, 5)):
                name = leaf_if(k) if dev.startswith("leaf") else spine_if(k)
                for p in (0, 3):
                    out.append('%s{hostname="%s",interface="%s",priority="%d"} %d %d' % (fam, dev, name, p, total(dev, k, "%s%d" % (key, p), t), ms))
    out += ["# HELP sonic_queue_ecn_marked_packets_total ECN-marked packets per egress queue", "# TYPE sonic_queue_ecn_marked_packets_total counter"]
    for dev in LEAVES + SPINES:
        for k in (range(1, 11) if dev.startswith("leaf") else range(1, 5)):
            name = leaf_if(k) if dev.startswith("leaf") else spine_if(k)
            out.append('sonic_queue_ecn_marked_packets_total{hostname="%s",interface="%s",queue="UC3"} %d %d' % (dev, name, total(dev, k, "ecn", t), ms))
    out += ["# HELP sonic_queue_dropped_packets_total Packets dropped per egress queue", "# TYPE sonic_queue_dropped_packets_total counter"]
    for dev in LEAVES + SPINES:
        for k in (range(1, 11) if dev.startswith("leaf") else range(1, 5)):
            name = leaf_if(k) if dev.startswith("leaf") else spine_if(k)
            out.append('sonic_queue_dropped_packets_total{hostname="%s",interface="%s",queue="UC3"} %d %d' % (dev, name, total(dev, k, "drops3", t), ms))
    out += ["# HELP sonic_interface_transmit_bytes_total Bytes transmitted", "# TYPE sonic_interface_transmit_bytes_total counter"]
    for dev in LEAVES + SPINES:
        for k in (range(1, 11) if dev.startswith("leaf") else range(1, 5)):
            name = leaf_if(k) if dev.startswith("leaf") else spine_if(k)
            out.append('sonic_interface_transmit_bytes_total{hostname="%s",interface="%s"} %d %d' % (dev, name, total(dev, k, "tx_bytes", t), ms))
    out += ["# HELP sonic_queue_watermark_bytes Egress queue watermark", "# TYPE sonic_queue_watermark_bytes gauge"]
    for dev in LEAVES + SPINES:
        for k in (range(1, 11) if dev.startswith("leaf") else range(1, 5)):
            name = leaf_if(k) if dev.startswith("leaf") else spine_if(k)
            out.append('sonic_queue_watermark_bytes{hostname="%s",interface="%s",queue="UC3"} %d %d' % (dev, name, int(rate.get((dev, k), {}).get("wm3", 0)), ms))
    out += ["# HELP node_ethtool_np_cnp_sent CNPs sent (node_exporter ethtool collector)", "# TYPE node_ethtool_np_cnp_sent untyped"]
    for s in ["server01"] + SENDERS:
        out.append('node_ethtool_np_cnp_sent{device="eth0",instance="%s:9100"} %d %d' % (s, nic_total(s, "cnp_sent", t), ms))
    out += ["# TYPE node_ethtool_rp_cnp_handled untyped"]
    for s in ["server01"] + SENDERS:
        out.append('node_ethtool_rp_cnp_handled{device="eth0",instance="%s:9100"} %d %d' % (s, nic_total(s, "cnp_handled", t), ms))
    out += ["# TYPE node_ethtool_np_ecn_marked_roce_packets untyped",
            'node_ethtool_np_ecn_marked_roce_packets{device="eth0",instance="server01:9100"} %d %d' % (nic_total("server01", "ecn", t), ms),
            "# TYPE node_ethtool_rx_prio3_pause untyped"]
    for s in ("server02", "server03"):
        out.append('node_ethtool_rx_prio3_pause{device="eth0",instance="%s:9100"} %d %d' % (s, nic_total(s, "pause", t), ms))
    out += ["# HELP sonic_fan_speed_rpm Fan speed (not a port counter: listed as unknown)", "# TYPE sonic_fan_speed_rpm gauge",
            'sonic_fan_speed_rpm{hostname="leaf1",fan="1"} 9120 %d' % ms,
            "# HELP scrape_duration_seconds How long the exporter took (a histogram: not read)", "# TYPE scrape_duration_seconds histogram",
            'scrape_duration_seconds_bucket{le="0.1"} 4', 'scrape_duration_seconds_bucket{le="+Inf"} 5',
            "scrape_duration_seconds_sum 0.41", "scrape_duration_seconds_count 5"]
    return "\n".join(out) + "\n"

def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write(text)

for t in (0, 1):
    write("prometheus/fabric.t%d.prom" % t, prometheus(t))
    for dev in LEAVES + SPINES:
        write("sonic-show/%s.show.t%d.txt" % (dev, t), sonic_show(dev, t))
        write("portstat/%s.portstat.t%d.json" % (dev, t), portstat(dev, t) + "\n")
    for dev in ["server01", "server02", "server03", "server09"]:
        write("ethtool/%s.ethtool.t%d.txt" % (dev, t), ethtool(dev, t))
    for dev in ["server01"]:
        for name, key in HW:
            write("hw_counters/%s.t%d/mlx5_0/ports/1/hw_counters/%s" % (dev, t, name), "%d\n" % (nic_total(dev, key, t) if key else 0))
    lines = ["# time: %s" % iso(t), "# SAMPLE: made-up figures as `grep -H . /sys/class/infiniband/*/ports/*/hw_counters/*` prints them"]
    for dev in ["server02", "server03"]:
        pass
    for name, key in HW:
        lines.append("/sys/class/infiniband/mlx5_0/ports/1/hw_counters/%s:%d" % (name, nic_total("server02", key, t) if key else 0))
    write("hw_counters/server02.hw_counters.t%d.txt" % t, "\n".join(lines) + "\n")

pm = {"schemaVersion": 1,
      "description": "SAMPLE port map: SONiC interface names of resources/examples/classic-leaf-spine.json's switches "
                     "(4 lanes per 100G port, 8 per 400G) onto the drawing's eth ports",
      "ports": {}}
for dev in LEAVES:
    for k in range(1, 11):
        pm["ports"]["%s:%s" % (dev, leaf_if(k))] = "%s:eth%d" % (dev, k)
for dev in SPINES:
    for k in range(1, 5):
        pm["ports"]["%s:%s" % (dev, spine_if(k))] = "%s:eth%d" % (dev, k)
write("port-map.json", json.dumps(pm, indent=2) + "\n")
