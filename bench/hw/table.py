#!/usr/bin/env python3
"""bench/hw/table.py — the Markdown table of a recorded hardware run (bench/hw/record.sh).

Reads CONFIG-SUITE.json files written by `ptxlitmus hw --json` and prints, per suite, one row
per test: the model's verdict, then per configuration the observed states against the states
the model allows ("seen/allowed", "+F" when states the model forbids were observed), and the
refusal reason for tests the harness cannot express.  A summary per configuration comes first.
"""
import json
import os
import sys


def load(paths):
    runs = {}   # (config, suite) -> results
    for p in paths:
        config, _, suite = os.path.basename(p)[:-5].rpartition("-")
        with open(p) as f:
            runs[(config, suite)] = json.load(f)
    return runs


def cell(r):
    if r["status"] != "ran":
        return r["status"]
    seen = sum(1 for h in r["histogram"] if h["verdict"] == "allowed")
    allowed = len(r.get("model_states", []))
    forbidden = r["observed_forbidden"]
    return "%d/%d%s" % (seen, allowed, " **+%dF**" % forbidden if forbidden else "")


def main(paths):
    runs = load(paths)
    configs = sorted({c for c, _ in runs})
    suites = sorted({s for _, s in runs})
    first = next(iter(runs.values()))
    print("# Hardware run\n")
    print("GPU: %s; nvcc %s; %s\n" % (
        next((r["gpu"] for d in runs.values() for r in d["results"] if r.get("gpu")), "?"),
        first.get("nvcc", "?"), first.get("time", "?")))
    print("| configuration | suite | tests | ran | refused | skipped | errors "
          "| observed-forbidden |")
    print("|---|---|---|---|---|---|---|---|")
    for c in configs:
        for s in suites:
            res = runs.get((c, s), {"results": []})["results"]
            n = lambda st: sum(1 for r in res if r["status"] == st)
            forb = sum(r.get("observed_forbidden", 0) for r in res)
            print("| %s | %s | %d | %d | %d | %d | %d | %d |" % (
                c, s, len(res), n("ran"), n("refused"), n("skipped"), n("error"), forb))
    for s in suites:
        print("\n## %s\n" % s)
        print("| test | model | " + " | ".join(configs) + " | note |")
        print("|---|---|" + "---|" * len(configs) + "---|")
        tests = runs.get((configs[0], s), {"results": []})["results"]
        for i, t in enumerate(tests):
            row = [runs[(c, s)]["results"][i] for c in configs if (c, s) in runs]
            verdict = next((r.get("model_verdict") for r in row if r.get("model_verdict")), "")
            note = (t.get("reason") or "").split(": ", 1)[-1][:90] if t["status"] != "ran" else ""
            print("| %s | %s | %s | %s |" % (os.path.basename(t["file"]), verdict,
                                             " | ".join(cell(r) for r in row), note))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: table.py RUN/*.json")
    main(sys.argv[1:])
