#!/usr/bin/env python3
"""Runs the shared PostgreSQL oracle once and checks lir-opt in several configurations.

The oracle (../shared/tools/pg_oracle/pg_oracle.py) spends nearly all its time on the
PostgreSQL side: per plan it creates a database, generates seeded data, and runs the query
round by round. That side does not depend on lir-opt's flags (the seed is derived from
--seed and the plan name), so running the oracle three times, once per rewrite
configuration, does the same PostgreSQL work three times. This driver imports the oracle
and runs its own main(), argument parsing and per-plan loop included, with one change:
the oracle's check of lir-opt against PostgreSQL's results (check_lir) is called once per
configuration, each with the configuration's extra lir-opt arguments and its own output
directory, on the same data and expected results.

The oracle's own output is that of the first configuration; each further configuration's
non-PASS lines and every configuration's summary follow, as

    rewrite NAME: pg oracle: P passed, F failed, S skipped

Usage:
    pg_oracle_configs.py ORACLE_DIR --config NAME[=ARG,...] ... -- ORACLE_ARGS...

Exits 0 when no configuration failed, 1 when one did, and 3 (having run nothing) when
the oracle's module no longer has the functions this driver wraps, so that the caller
can fall back to one oracle run per configuration.
"""
import collections
import copy
import inspect
import os
import sys
import threading

API_CHANGED = 3


def parse_configs(argv):
    configs, rest = [], []
    it = iter(argv)
    for arg in it:
        if arg == "--":
            rest = list(it)
            break
        if arg.startswith("--config="):
            spec = arg[len("--config="):]
        elif arg == "--config":
            spec = next(it)
        else:
            sys.exit(f"pg_oracle_configs: unexpected argument {arg!r} (configs, then --)")
        name, _, extra = spec.partition("=")
        configs.append((name, [a for a in extra.split(",") if a]))
    if not configs:
        sys.exit("pg_oracle_configs: give at least one --config NAME[=ARG,...]")
    return configs, rest


def has_api(oracle):
    """True when the oracle has the entry points and signatures this driver relies on."""
    wanted = {"main": [], "run_entry": ["e", "args"],
              "check_lir": ["e", "args", "data_path", "expected", "summary"]}
    for name, params in wanted.items():
        fn = getattr(oracle, name, None)
        if not callable(fn) or list(inspect.signature(fn).parameters) != params:
            return False
    return hasattr(oracle, "Result")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    oracle_dir = sys.argv[1]
    configs, oracle_args = parse_configs(sys.argv[2:])
    sys.path.insert(0, oracle_dir)
    import pg_oracle as oracle  # noqa: E402  (the shared tool, read in place)

    if not has_api(oracle):
        print("pg_oracle_configs: the oracle's module API changed; run it once per configuration",
              file=sys.stderr)
        return API_CHANGED

    lock = threading.Lock()
    results = {name: {} for name, _ in configs}  # config -> stem -> Result
    check_lir, run_entry = oracle.check_lir, oracle.run_entry

    def check_every_config(e, args, data_path, expected, summary):
        first = None
        for name, extra in configs:
            config_args = copy.copy(args)
            config_args.lir_arg = list(args.lir_arg) + extra
            config_args.out = os.path.join(args.out, name)
            os.makedirs(config_args.out, exist_ok=True)
            res = check_lir(e, config_args, data_path, expected, summary)
            with lock:
                results[name][e.stem] = res
            first = first or res
        return first

    def run_entry_for_every_config(e, args):
        res = run_entry(e, args)
        # Failures before lir-opt runs (the DDL, PostgreSQL on the data) hold for every
        # configuration.
        with lock:
            for name, _ in configs:
                results[name].setdefault(e.stem, res)
        return res

    oracle.check_lir = check_every_config
    oracle.run_entry = run_entry_for_every_config
    sys.argv = [os.path.join(oracle_dir, "pg_oracle.py")] + oracle_args
    try:
        oracle.main()
    except SystemExit as done:
        if done.code not in (0, 1, None):
            raise
    sys.stdout.flush()

    failed = False
    for index, (name, _) in enumerate(configs):
        counts = collections.Counter(r.status for r in results[name].values())
        if index:
            for stem in sorted(results[name]):
                res = results[name][stem]
                if res.status != "PASS":
                    print(f"{res.status} {stem} (rewrite {name}): {res.msg}")
        print(f"rewrite {name}: pg oracle: {counts['PASS']} passed, {counts['FAIL']} failed, "
              f"{counts['SKIP']} skipped")
        failed = failed or counts["FAIL"] > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
