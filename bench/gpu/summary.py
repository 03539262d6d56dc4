#!/usr/bin/env python3
"""bench/gpu/summary.py — the summary of one bench/gpu/run_all.sh run, as Markdown on stdout.

Reads RUN/steps.tsv (step, start s, end s, exit status, note), RUN/hw/hw-CONFIG-SUITE.json
(`ptxlitmus hw --json`), RUN/record.log and RUN/sanitizer/*.  Columns of the hardware table:
  ran, refused, skipped, error       test counts by status
  hung (alarm)                       tests killed at their limit (status hung; older runs: errors
                                     that ran past --timeout), and of them the ones the model
                                     says always terminate (an alarm)
  forbidden                          tests where the GPU showed a state the model forbids
  all allowed seen                   tests where every state the model allows was observed,
                                     over the tests whose model allows more than one state
  condition seen                     tests where a state satisfying the test's condition was
                                     observed, over the tests whose model allows one (for the
                                     usual `exists` tests: the weak outcome the model allows)
Standard library only.  Exit: 1 a forbidden state was observed (or a hang the model rules out), 77 no hardware test ran and
every one that could have was skipped (no GPU here), else 0.
"""
import glob
import json
import os
import re
import sys


def steps(run):
    rows = []
    p = os.path.join(run, "steps.tsv")
    if os.path.exists(p):
        for line in open(p):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 4:
                rows.append(f + [""] * (5 - len(f)))
    return rows


def hw_results(run):
    out = {}
    for p in sorted(glob.glob(os.path.join(run, "hw", "hw-*.json"))):
        config, suite = os.path.basename(p)[3:-5].split("-", 1)
        try:
            out[(config, suite)] = json.load(open(p))["results"]
        except (OSError, ValueError, KeyError) as e:
            out[(config, suite)] = e
    return out


def hw_row(res):
    n = lambda st: sum(1 for r in res if r["status"] == st)
    ran = [r for r in res if r["status"] == "ran"]
    hung = sum(1 for r in res if r["status"] == "hung" or (
        r["status"] == "error" and "past --timeout" in (r.get("reason") or "")))
    alarm = sum(1 for r in res if r.get("hang") == "alarm")
    multi = [r for r in ran if len(r.get("model_states") or []) > 1]
    allseen = sum(1 for r in multi if all(m.get("seen") for m in r["model_states"]))
    posible = [r for r in ran if any(m.get("condition") for m in r.get("model_states") or [])]
    cond = sum(1 for r in posible if (r.get("positive") or 0) > 0)
    forb = sum(1 for r in ran if r.get("observed_forbidden"))
    return {"tests": len(res), "ran": len(ran), "refused": n("refused"), "skipped": n("skipped"),
            "error": n("error"), "hung": hung, "alarm": alarm, "forbidden": forb,
            "allseen": "%d/%d" % (allseen, len(multi)), "cond": "%d/%d" % (cond, len(posible))}


# compute-sanitizer's (and run --check's, which prints the same way) closing count: "ERROR
# SUMMARY: N error(s)" -- not its "ERROR SUMMARY: N errors were not printed. Use --print-limit
# ..." line -- or racecheck's "RACECHECK SUMMARY: N hazard(s) displayed (E errors, W warnings)"
SUMMARY_RE = re.compile(r"ERROR SUMMARY: (\d+) errors?$")
RACE_RE = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)")


def report_cell(lines, executor):
    """A sanitizer report in one cell: the first finding (the executor's "fault: ..." or the
    first '========= ' line that is not a summary), then the error count of the summary line.
    compute-sanitizer's file also holds what compare_device printed (the executor's own
    fault): only its '=========' lines count there."""
    count = None
    if not executor:
        lines = [l for l in lines if l.startswith("=========")]
    for l in lines:
        l = l.strip()
        m = RACE_RE.search(l)
        if m:
            count = "%s hazard%s: %s error%s, %s warning%s" % (
                m.group(1), "" if m.group(1) == "1" else "s", m.group(2),
                "" if m.group(2) == "1" else "s", m.group(3), "" if m.group(3) == "1" else "s")
        m = SUMMARY_RE.search(l)
        if m:
            count = "%s error%s" % (m.group(1), "" if m.group(1) == "1" else "s")
    first = None
    for l in lines:
        if "fault: " in l:
            first = l.split("fault: ", 1)[1].strip()
            break
        t = l.strip()
        if t.startswith("=========") and "SUMMARY" not in t and "Target application" not in t:
            t = t.strip("= ").strip()
            if t and not t.startswith(("by thread", "at ", "and ", "__global__", "(",
                                       "COMPUTE-SANITIZER", "Saved host backtrace")):
                first = t
                break
    first = (first or "")[:70].replace("|", "\\|")
    if not first:
        return count or "no finding"
    if count is None or count.startswith(("0 error", "0 hazards")):
        return first
    return "%s (%s)" % (first, count)


def main(run):
    print("# GPU run %s\n" % os.path.basename(os.path.abspath(run)))
    info = os.path.join(run, "info.txt")
    if os.path.exists(info):
        for line in open(info):
            if line.startswith(("gpu:", "driver:", "nvcc:", "ptxlitmus:", "commit:", "host:")):
                print("* " + line.strip())
        print()
    print("## Steps\n\n| step | start s | end s | seconds | exit | note |\n|---|---|---|---|---|---|")
    for name, start, end, rc, note in steps(run):
        try:
            secs = int(end) - int(start)
        except ValueError:
            secs = "-"
        print("| %s | %s | %s | %s | %s | %s |" % (name, start, end, secs, rc, note))
    res = hw_results(run)
    forbidden = 0
    ran_any = skipped_any = 0
    print("\n## Hardware runs (ptxlitmus hw)\n")
    print("A = plain (`--timeout 20`), B = `--placement shuffle --stress lines --launches 8`; "
          "columns in bench/gpu/summary.py.\n")
    print("| config | suite | tests | ran | refused | skipped | error | hung (alarm) "
          "| forbidden seen | all allowed seen | condition seen |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    reasons = {}
    for (config, suite), r in sorted(res.items()):
        if isinstance(r, Exception):
            print("| %s | %s | no JSON: %s ||||||||" % (config, suite, r))
            continue
        h = hw_row(r)
        forbidden += h["forbidden"] + h["alarm"]
        ran_any += h["ran"]
        skipped_any += h["skipped"]
        print("| %s | %s | %d | %d | %d | %d | %d | %d (%d) | %d | %s | %s |" % (
            config, suite, h["tests"], h["ran"], h["refused"], h["skipped"], h["error"],
            h["hung"], h["alarm"], h["forbidden"], h["allseen"], h["cond"]))
        if config == "A":
            for x in r:
                if x["status"] in ("refused", "error", "skipped", "hung"):
                    why = re.sub(r"^\S+:\d+:\d+: ", "", x.get("reason") or "?")
                    why = re.sub(r"'[^']*'", "'...'", why.split("\n")[0])[:110]
                    key = (suite, x["status"], why)
                    reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        print("\nWhy tests did not run (config A):\n")
        print("| suite | status | reason | tests |\n|---|---|---|---|")
        for (suite, st, why), k in sorted(reasons.items(), key=lambda kv: (kv[0][0], -kv[1])):
            print("| %s | %s | %s | %d |" % (suite, st, why.replace("|", "\\|"), k))
    rec = os.path.join(run, "record.log")
    if os.path.exists(rec):
        print("\n## Recorder (tests/kernels/record_gpu.sh)\n")
        for line in open(rec):
            if line.startswith("record"):
                print("* " + line.strip())
    san = os.path.join(run, "sanitizer")
    if os.path.isdir(san):
        print("\n## Executor beside the GPU (bench/compare_device.py, run --check, "
              "compute-sanitizer)\n")
        print("| spec | compare_device | tool | run --check | compute-sanitizer |")
        print("|---|---|---|---|---|")
        for cmp in sorted(glob.glob(os.path.join(san, "*.compare"))):
            name = os.path.basename(cmp)[:-8]
            first = [l.strip() for l in open(cmp) if l.strip() and not l.startswith("rc=")]
            verdict = first[-1].split(": ", 1)[-1][:80] if first else "?"
            tools = sorted(glob.glob(os.path.join(san, name + ".*.check")))
            if not tools:
                print("| %s | %s | - | - | - |" % (name, verdict))
            for t in tools:
                tool = t[len(os.path.join(san, name)) + 1:-6]
                ex_txt = report_cell(list(open(t)), True)
                cs_path = t[:-6] + ".csan"
                cs = list(open(cs_path)) if os.path.exists(cs_path) else []
                cs_txt = report_cell(cs, False) if cs else "-"
                print("| %s | %s | %s | %s | %s |" % (name, verdict, tool, ex_txt, cs_txt))
    if forbidden:
        status, rc = ("FORBIDDEN STATE OBSERVED or a hang the model rules out, in %d test(s)"
                      % forbidden), 1
    elif not ran_any and skipped_any:
        status, rc = "no hardware test ran (skipped: no GPU here)", 77
    else:
        status, rc = "no state the model forbids was observed", 0
    print("\nResult: %s" % status)
    return rc


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: summary.py RUN_DIR")
    sys.exit(main(sys.argv[1]))
