#!/usr/bin/env python3
"""Peak memory of lir-opt against the size of its input (docs/RELIABILITY.md).

Generates inputs of growing size for the commands that read user files
whole (slt, explain, run's data file), runs `lir-opt` on each in a child
process, and prints the child's peak resident set size (getrusage's
ru_maxrss) beside the input's size and their ratio. The promise this
measures: memory stays within a small multiple of the input.

Usage: bench/peak_rss.py [--lir-opt=build/tools/lir-opt/lir-opt] [--scale=N]
                         [--update=docs/BENCHMARKS.md]
(--scale multiplies every input size; 1 is 5 to 20 MB per input; --update
replaces the report's peak-memory block, between <!-- peak-rss:begin -->
and <!-- peak-rss:end -->, or appends it; scripts/bench.sh keeps it when it
regenerates the rest).
"""

import argparse
import datetime
import json
import platform
import os
import shutil
import subprocess
import sys
import tempfile

SLT_BLOCK = """query T multiline
EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR SELECT 1
----
Explained Query (fast path):
  Constant
    - (1)

Target cluster: quickstart

EOF

"""


def slt_input(path, size):
    """A .slt file of `size` bytes of small plan blocks (the probe's case)."""
    with open(path, "w") as out:
        out.write(SLT_BLOCK * max(1, size // len(SLT_BLOCK)))


def wide_plan_input(path, size):
    """A verbose plan whose Constant has rows of `size` bytes in all."""
    row = '    - (1, "xxxxxxxxxxxxxxxxxxxx")\n'
    with open(path, "w") as out:
        out.write("Explained Query:\n  Constant\n")
        out.write(row * max(1, size // len(row)))
        out.write("\nTarget cluster: quickstart\n")


def deep_plan_input(path, size):
    """A verbose plan of nested Negates, `size` bytes of text."""
    depth = 1
    while (depth + 1) * (depth + 2) + 40 < size:  # 2 spaces per level
        depth += 1
    depth = min(depth, 90000)
    with open(path, "w") as out:
        out.write("Explained Query:\n")
        for level in range(depth):
            out.write("  " * (level + 1) + "Negate\n")
        out.write("  " * (depth + 1) + "Constant\n")
        out.write("  " * (depth + 2) + "- (1)\n")
        out.write("\nTarget cluster: quickstart\n")


def data_input(path, size):
    """A data file of many one-update collections (`size` bytes)."""
    entry = len(json.dumps({"c00000": {"arity": 1, "updates": [[[0], 0, 1]]}}))
    count = max(1, size // entry)
    collections = {
        f"c{i:05d}": {"arity": 1, "updates": [[[i], 0, 1]]} for i in range(count)
    }
    with open(path, "w") as out:
        json.dump({"collections": collections}, out)


def data_rows_input(path, size):
    """A data file of one collection of `size` bytes of 4-column rows
    (integer, string, float, boolean or null), the shape of real data."""
    row = json.dumps([[123456, "name123456", 0.5, True], 3, 1])
    count = max(1, size // (len(row) + 2))
    updates = [
        [[i, f"name{i}", i * 0.5, None if i % 7 == 0 else True], i % 5, 1]
        for i in range(count)
    ]
    with open(path, "w") as out:
        json.dump(
            {"collections": {"materialize.public.t": {"arity": 4, "updates": updates}}},
            out,
        )


def run_rows_input(path, size):
    """100,000 rows then one-row rounds (500 per 5 MB of `size`): run must
    not keep every round's contents."""
    rounds = max(1, size // 10000)
    updates = [[[i], 0, 1] for i in range(100000)]
    updates += [[[-r], r, 1] for r in range(1, rounds + 1)]
    with open(path, "w") as out:
        json.dump(
            {"collections": {"materialize.public.t": {"arity": 1, "updates": updates}}},
            out,
        )


GET_T = "materialize.public.mv:\n  Get::Collection materialize.public.t\n    raw=true\n"
EMPTY_PLAN = "materialize.public.mv:\n  Constant\n    - (1)\n"


def peak_kb(argv):
    """Runs argv with its output discarded; returns (exit code, its peak RSS
    in KB). wait4 reports this child alone; the child's figure includes
    what the calling process held when it started the child (Linux carries
    the pre-exec peak over), so the caller generates no input itself."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss


def update_report(path, table, lir_opt):
    """Replaces (or appends) the peak-memory block of the report at path."""
    block = "\n".join(
        [
            "<!-- peak-rss:begin -->",
            "## Peak memory (bench/peak_rss.py)",
            "",
            f"- date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}",
            f"- host: {platform.node()}, {os.cpu_count()} CPUs; binary: `{lir_opt}`",
            "",
            "Peak resident set size of one `lir-opt` process (getrusage) on",
            "generated inputs, and its ratio to the input's size. slt: 20 MB of",
            "small plan blocks; explain: a Constant of short rows, and a plan of",
            "nested Negates (text only; its depth grows with the input); run: a",
            "data file of many one-update collections, and one of a collection of",
            "4-column rows, each read for a plan that reads none (data reading",
            "alone: the text, then the rows at about 40 bytes per value and 56 per",
            "row; no tree of the file), and 100,000 rows then one-row rounds on a",
            "bare Get (the evaluator's rows, feeds and contents, not the input, set",
            "its figure).",
            "",
        ]
        + table
        + ["<!-- peak-rss:end -->"]
    )
    text = open(path).read() if os.path.exists(path) else ""
    begin = text.find("<!-- peak-rss:begin -->")
    end = text.find("<!-- peak-rss:end -->")
    if begin >= 0 and end > begin:
        text = text[:begin] + block + text[end + len("<!-- peak-rss:end -->"):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path + ".tmp", "w") as out:
        out.write(text)
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lir-opt", default="build/tools/lir-opt/lir-opt")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--update", default="")
    args = parser.parse_args()
    # Inputs are generated by a child interpreter (the generator's memory
    # would otherwise count in lir-opt's peak, see peak_kb).
    generate = os.environ.get("LIR_PEAK_RSS_GENERATE")
    tmp = tempfile.mkdtemp(prefix="lir_peak_rss_") if generate is None else ""
    plan_path = os.path.join(tmp, "get_t.plan")
    const_path = os.path.join(tmp, "const.plan")
    if generate is None:
        with open(plan_path, "w") as out:
            out.write(GET_T)
        with open(const_path, "w") as out:
            out.write(EMPTY_PLAN)
    cases = [
        ("slt, small blocks", "in.slt", slt_input, lambda p: ["slt", p]),
        ("explain, wide Constant", "wide.plan", wide_plan_input, lambda p: ["explain", p]),
        ("explain, deep plan", "deep.plan", deep_plan_input, lambda p: ["explain", p]),
        (
            "run data file, many collections",
            "data.json",
            data_input,
            lambda p: ["run", f"--data={p}", const_path],
        ),
        (
            "run data file, one collection of 4-column rows",
            "rows.json",
            data_rows_input,
            lambda p: ["run", f"--data={p}", const_path],
        ),
        (
            "run, 100,000 rows then one-row rounds (Get)",
            "rounds.json",
            run_rows_input,
            lambda p: ["run", f"--data={p}", plan_path],
        ),
    ]
    if generate is not None:
        index, size, path = generate.split(":", 2)
        cases[int(index)][2](path, int(int(size) * args.scale))
        return
    lines = [
        "| input | bytes | peak RSS (MB) | RSS / input |",
        "|---|---:|---:|---:|",
    ]
    print("\n".join(lines), flush=True)
    for index, (name, file, _, command) in enumerate(cases):
        for size in (5_000_000, 20_000_000):
            path = os.path.join(tmp, file)
            env = dict(os.environ, LIR_PEAK_RSS_GENERATE=f"{index}:{size}:{path}")
            subprocess.run([sys.executable] + sys.argv, env=env, check=True)
            actual = os.path.getsize(path)
            code, kb = peak_kb([args.lir_opt] + command(path))
            os.remove(path)
            row = (
                f"| {name}{'' if code == 0 else f' (exit {code})'} | {actual:,} "
                f"| {kb / 1024:.1f} | {kb * 1024 / actual:.1f} |"
            )
            print(row, flush=True)
            lines.append(row)
    shutil.rmtree(tmp, ignore_errors=True)
    if args.update:
        update_report(args.update, lines, args.lir_opt)


if __name__ == "__main__":
    main()
