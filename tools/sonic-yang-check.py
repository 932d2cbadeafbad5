#!/usr/bin/env python3
"""Checks a FabricLab SONiC export (<switch>.config_db.json) against SONiC's YANG models with yanglint.

    tools/sonic-yang-check.py YANG_DIR FILE.config_db.json [--platform-lanes N] [--keep DIR]

YANG_DIR is sonic-buildimage's src/sonic-yang-models/yang-models with the templates of
yang-templates/ rendered into it (sonic-types.yang, sonic-extension.yang, ...), as that package's
setup.py does. config_db JSON is not YANG instance data: SONiC's sonic_yang library translates
each table TABLE of module M into {"M:M": {"M:TABLE": {"TABLE_LIST": [rows]}}} (here written as the
equivalent XML instance data), a row's key split
at '|' into the list's key leaves, and a map table (DSCP_TO_TC_MAP, ...) into a nested list of
{key leaf, value leaf} pairs. This script does that translation for the tables FabricLab writes and
runs `yanglint -t config` on the result with the modules those tables need.

--platform-lanes N completes each PORT row with the `lanes` a platform's own PORT table has
(EthernetK -> lanes K..K+N-1): the fragment is meant to be merged into the platform's config,
where these rows already exist; without it yanglint reports the missing mandatory `lanes`.
Prints yanglint's output and exits with its code (0: the data is valid).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from xml.sax.saxutils import escape

# table -> (module, list, key leaves, map (inner list, key leaf, value leaf) or None)
TABLES = {
    "PORT": ("sonic-port", "PORT_LIST", ["name"], None),
    "DSCP_TO_TC_MAP": ("sonic-dscp-tc-map", "DSCP_TO_TC_MAP_LIST", ["name"], ("DSCP_TO_TC_MAP", "dscp", "tc")),
    "TC_TO_PRIORITY_GROUP_MAP": ("sonic-tc-priority-group-map", "TC_TO_PRIORITY_GROUP_MAP_LIST", ["name"],
                                 ("TC_TO_PRIORITY_GROUP_MAP", "tc", "pg")),
    "TC_TO_QUEUE_MAP": ("sonic-tc-queue-map", "TC_TO_QUEUE_MAP_LIST", ["name"], ("TC_TO_QUEUE_MAP", "tc", "qindex")),
    "MAP_PFC_PRIORITY_TO_QUEUE": ("sonic-pfc-priority-queue-map", "MAP_PFC_PRIORITY_TO_QUEUE_LIST", ["name"],
                                  ("MAP_PFC_PRIORITY_TO_QUEUE", "pfc_priority", "qindex")),
    "PORT_QOS_MAP": ("sonic-port-qos-map", "PORT_QOS_MAP_LIST", ["ifname"], None),
    "BUFFER_POOL": ("sonic-buffer-pool", "BUFFER_POOL_LIST", ["name"], None),
    "BUFFER_PROFILE": ("sonic-buffer-profile", "BUFFER_PROFILE_LIST", ["name"], None),
    "BUFFER_PG": ("sonic-buffer-pg", "BUFFER_PG_LIST", ["port", "pg_num"], None),
    "BUFFER_QUEUE": ("sonic-buffer-queue", "BUFFER_QUEUE_LIST", ["port", "qindex"], None),
    "WRED_PROFILE": ("sonic-wred-profile", "WRED_PROFILE_LIST", ["name"], None),
    "SCHEDULER": ("sonic-scheduler", "SCHEDULER_LIST", ["name"], None),
    "QUEUE": ("sonic-queue", "QUEUE_LIST", ["ifname", "qindex"], None),
    "PFC_WD": ("sonic-pfcwd", "PFC_WD_LIST", ["ifname"], None),
}


def translate(config_db, platform_lanes):
    """{module: {table: [row dicts]}}: rows keyed by the list's key leaves, map tables as nested pairs."""
    out = {}
    for table, rows in config_db.items():
        if table not in TABLES:
            raise SystemExit(f"sonic-yang-check: table {table} has no translation here (known: {', '.join(TABLES)})")
        module, list_name, keys, mapping = TABLES[table]
        entries = []
        for key, fields in rows.items():
            parts = key.split("|")
            if len(parts) != len(keys):
                raise SystemExit(f"sonic-yang-check: {table} key '{key}' does not split into {keys}")
            entry = dict(zip(keys, parts))
            if mapping is None:
                entry.update(fields)
            else:
                inner, k, v = mapping
                entry[inner] = [{k: a, v: b} for a, b in fields.items()]
            if table == "PORT" and platform_lanes and "lanes" not in entry:
                first = int(parts[0][len("Ethernet"):])
                entry["lanes"] = ",".join(str(first + i) for i in range(platform_lanes))
            entries.append(entry)
        out.setdefault(module, {})[table] = (list_name, entries)
    return out


def namespace(yang_dir, module):
    with open(os.path.join(yang_dir, module + ".yang"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("namespace"):
                return line.split('"')[1]
    raise SystemExit(f"sonic-yang-check: no namespace in {module}.yang")


def to_xml(yang_dir, data):
    """XML instance data: every value is text there, as in config_db (JSON instance data would
    need each leaf's YANG type to choose between a number and a string)."""
    out = []

    def element(name, value, indent):
        if isinstance(value, list):
            for item in value:
                element(name, item, indent)
        elif isinstance(value, dict):
            out.append(f"{indent}<{name}>")
            for k, v in value.items():
                element(k, v, indent + " ")
            out.append(f"{indent}</{name}>")
        else:
            out.append(f"{indent}<{name}>{escape(str(value))}</{name}>")

    for module, tables in data.items():
        out.append(f' <{module} xmlns="{namespace(yang_dir, module)}">')
        for table, (list_name, entries) in tables.items():
            out.append(f"  <{table}>")
            element(list_name, entries, "   ")
            out.append(f"  </{table}>")
        out.append(f" </{module}>")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    yang_dir, path = argv[0], argv[1]
    lanes = 0
    keep = None
    rest = argv[2:]
    while rest:
        if rest[0] == "--platform-lanes" and len(rest) > 1:
            lanes = int(rest[1])
            rest = rest[2:]
        elif rest[0] == "--keep" and len(rest) > 1:
            keep = rest[1]
            rest = rest[2:]
        else:
            print(f"sonic-yang-check: unknown option {rest[0]}", file=sys.stderr)
            return 2
    with open(path, encoding="utf-8") as f:
        config_db = json.load(f)
    data = translate(config_db, lanes)
    work = tempfile.mkdtemp(prefix="sonic-yang-check-")
    try:
        instance = os.path.join(work, os.path.basename(path).replace(".config_db.json", ".yang.xml"))
        with open(instance, "w", encoding="utf-8") as f:
            f.write(to_xml(yang_dir, data))
        # sonic-device_metadata too: the models' when/must conditions read DEVICE_METADATA, and
        # libyang skips them (with a warning) when that module is not loaded.
        modules = ["sonic-device_metadata"] + sorted({TABLES[t][0] for t in config_db})
        cmd = ["yanglint", "-t", "config", "-p", yang_dir]
        cmd += [os.path.join(yang_dir, m + ".yang") for m in modules]
        cmd.append(instance)
        print("$ " + " ".join(cmd[:5]) + " " + " ".join(m + ".yang" for m in modules) + " " + os.path.basename(instance))
        run = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(run.stdout)
        sys.stdout.write(run.stderr)
        print(f"yanglint exit {run.returncode}: {sum(len(r) for r in config_db.values())} rows in "
              f"{len(config_db)} tables" + (" (PORT completed with platform lanes)" if lanes else ""))
        if keep:
            shutil.copy(instance, keep)
        return run.returncode
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
