#!/usr/bin/env python3
"""Writes the catalog `lir-opt run --catalog` needs for the pg oracle's plans.

A fast-path peek names the index it reads (`ReadIndex on=materialize.public.t
t_a_idx=[...]`) but not the index's key, and the oracle's data files declare no
indexes. The key is in the catalog Materialize had: the `CREATE INDEX <name> ON
<table>(<columns>)` of the sqllogictest file the plan came from. This reads it
there (corpus/materialize-slt, found through the .sql header's `-- source:`)
and resolves the columns against the table's CREATE TABLE in the .sql file.

Usage: pg_oracle_catalog.py SHARED_DIR OUT.json
Exits 1 naming the plan and index when a key cannot be found.
"""
import json
import re
import sys
from pathlib import Path


def table_columns(sql: str, table: str):
    match = re.search(r"create\s+table\s+\"?%s\"?\s*\((.*?)\)\s*;" % re.escape(table),
                      sql, re.I | re.S)
    if not match:
        return None
    columns = []
    for part in match.group(1).split(","):
        words = part.strip().split()
        if words and words[0].lower() not in ("primary", "unique", "constraint", "check"):
            columns.append(words[0].strip('"').lower())
    return columns


def main() -> int:
    shared, out = Path(sys.argv[1]), Path(sys.argv[2])
    sql_dir = shared / "corpus" / "materialize-sql"
    indexes = {}
    for row in (sql_dir / "MAP.tsv").read_text().splitlines()[1:]:
        fields = row.split("\t")
        if len(fields) < 5 or "fast-path" not in fields[4].split(","):
            continue
        plan_text = (shared / "corpus" / "materialize" / fields[0]).read_text()
        sql = (sql_dir / fields[1]).read_text()
        source = re.search(r"^-- source: (\S+):\d+", sql, re.M).group(1)
        slt_name = source.removeprefix("test/sqllogictest/").replace("/", "__")
        slt = (shared / "corpus" / "materialize-slt" / slt_name).read_text()
        reads = dict(r.split(" -> ") for r in fields[3].split(" | ") if " -> " in r)
        for on, index in re.findall(r"ReadIndex on=(\S+) (\S+?)=\[", plan_text):
            create = re.search(r"create\s+index\s+%s\s+on\s+\"?(\w+)\"?\s*\(([^)]*)\)"
                               % re.escape(index), slt, re.I)
            table = reads.get(on)
            columns = table_columns(sql, table) if table else None
            if not create or columns is None or create.group(1).lower() != table.lower():
                print(f"pg_oracle_catalog: {fields[0]}: no key for index {index} on {on}",
                      file=sys.stderr)
                return 1
            key = []
            for column in create.group(2).split(","):
                name = column.strip().strip('"').lower()
                if name not in columns:
                    print(f"pg_oracle_catalog: {fields[0]}: index {index} names "
                          f"{name}, not a column of {table}", file=sys.stderr)
                    return 1
                key.append(columns.index(name))
            prefix = on.rsplit(".", 1)[0] + "." if "." in on else ""
            indexes[prefix + index] = {"on": on, "key": key}
    out.write_text(json.dumps({"indexes": indexes}, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
