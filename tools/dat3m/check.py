"""tools/dat3m/check.py - compares `ptxlitmus verify --model ptx-v7.5` (or ptx-v6.0) with an
independent evaluation of Dat3M's own cat files (read in place from ../shared/spec/cat) over
random tests (tools/dat3m/gen.py) or given files: for every test, the set of reachable final
states and the verdict must be the same (issue #28 item 8, docs/model.md "Event semantics").

  python3 -m tools.dat3m.check --seeds 1-1000 [--model ptx-v7.5] [--ptxlitmus ./ptxlitmus]
  python3 -m tools.dat3m.check FILE.litmus...     (evaluate files, e.g. the public suite's)
  python3 -m tools.dat3m.check --print SEED       (the random test of a seed)
  python3 -m tools.dat3m.check --published ../shared/conformance/dat3m-ptx
                                                  (the evaluator against published verdicts)

Exit status 0 when every test agrees, 1 when one differs, 2 on a usage error.  Tests the
evaluator cannot read (branches, proxies) or enumerate within --limit candidates are counted
and skipped.  The evaluator shares no code with ptxlitmus: its own litmus reader
(tools/dat3m/litmus.py), candidate executions (explore.py) and cat interpreter (catlang.py).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from . import catlang, explore, gen, litmus

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def load_model(model, spec):
    name = {"ptx-v7.5": "dat3m-ptx-v7.5.cat", "ptx-v6.0": "dat3m-ptx-v6.0.cat"}[model]
    path = os.path.join(spec, "cat", name)
    stdlib = catlang.load(os.path.join(spec, "cat", "dat3m-stdlib.cat"))
    stmts = stdlib + catlang.load(path)
    text = open(path).read().replace(" ", "")
    if "acyclic(rf|dep)" not in text and "acyclic(rf|addr|data|ctrl)" not in text:
        sys.exit("%s: no No-Thin-Air axiom; explore.py's pruning of rf | data cycles needs it"
                 % path)
    return catlang.Model(stmts, {})


def run_ptxlitmus(binary, model, texts, extra):
    """ptxlitmus's JSON result per test (one process for all), or an error string."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, text in enumerate(texts):
            paths.append(os.path.join(d, "t%05d.litmus" % i))
            with open(paths[-1], "w") as f:
                f.write(text)
        p = subprocess.run([binary, "verify", "-q", "--model", model, "--states", "all",
                            "--json", "-"] + extra + paths, capture_output=True, text=True)
    try:
        results = json.loads(p.stdout)["results"]
    except (ValueError, KeyError):
        return [p.stderr.strip() or "no JSON"] * len(texts)
    by_file = {r["file"]: r for r in results}
    out = []
    for path in paths:
        r = by_file.get(path)
        if r is None or r.get("status") != "ok":
            out.append((r or {}).get("error") or "no result")
        else:
            out.append(r)
    return out


def evaluate(name, text, args, stats):
    """(test, states, observables) of the evaluator, or a message when it cannot decide."""
    try:
        t = litmus.parse(text)
        t0 = time.time()
        states, obs, _ = explore.explore(t, args.cat_model, args.sc_nonms, args.limit)
        stats["eval_s"] += time.time() - t0
        return t, states, obs
    except litmus.Unsupported as e:
        stats["unsupported"] += 1
        return "unsupported: %s" % e
    except explore.TooBig as e:
        stats["too_big"] += 1
        return "skipped: %s candidates" % e


def compare(name, ev, res, stats):
    t, states, obs = ev
    if isinstance(res, str):
        if "(limit --" in res:      # a limit of ptxlitmus, not an answer
            stats["tool_limits"] += 1
            return "ptxlitmus undecided: %s" % res
        stats["tool_errors"] += 1
        return "ptxlitmus error: %s" % res
    mine = explore.verdict(t, states, obs)
    theirs = {tuple(s.get(o) for o in obs) for s in res["states"]}
    stats["compared"] += 1
    if theirs != states or bool(res["validated"]) != mine:
        stats["differ"] += 1
        return ("DIFFER %s: verdict %s (Dat3M's cat) vs %s (ptxlitmus); only Dat3M's cat: %s; "
                "only ptxlitmus: %s" % (name, mine, res["validated"], sorted(states - theirs),
                                        sorted(theirs - states)))
    stats["agree"] += 1
    return None


def published(args):
    """The evaluator alone against the published verdicts of the public suite (the tests it
    can read): its check before it judges ptxlitmus."""
    csv = {"ptx-v7.5": "expected-ptx-v7.5.csv", "ptx-v6.0": "expected-ptx-v6.0.csv"}[args.model]
    path = os.path.join(args.published, csv)
    if not os.path.exists(path):
        print("SKIP: %s not found (the public suite lives in ../shared)" % path)
        return 77
    agree = differ = skipped = 0
    for line in open(path):
        f, _, want = line.strip().rpartition(",")
        if not f.endswith(".litmus"):
            continue
        try:
            t = litmus.parse(open(os.path.join(args.published, f)).read())
            states, obs, _ = explore.explore(t, args.cat_model, args.sc_nonms, args.limit)
        except (litmus.Unsupported, explore.TooBig):
            skipped += 1
            continue
        if int(explore.verdict(t, states, obs)) == int(want):
            agree += 1
        else:
            differ += 1
            print("DIFFER %s: Dat3M's cat evaluated gives %d, published %s" % (
                f, int(explore.verdict(t, states, obs)), want))
    print("published %s: %d tests read, %d agree, %d differ; %d not read (branches, proxies)"
          % (args.model, agree + differ, agree, differ, skipped))
    return 1 if differ else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tools.dat3m.check", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--seeds", help="A-B,C,...: the random tests of these seeds")
    ap.add_argument("--print", type=int, metavar="SEED", help="print the test of SEED")
    ap.add_argument("--model", default="ptx-v7.5", choices=["ptx-v7.5", "ptx-v6.0"])
    ap.add_argument("--ptxlitmus", default=os.path.join(ROOT, "ptxlitmus"))
    ap.add_argument("--spec", default=os.environ.get("PTXLITMUS_SPEC",
                                                     os.path.join(ROOT, "..", "shared", "spec")))
    ap.add_argument("--limit", type=int, default=300000, help="candidates per test")
    ap.add_argument("--sc-nonms", choices=["free", "none"], default="free",
                    help="Fence-SC edges between fence.sc pairs that are not morally strong")
    ap.add_argument("--extra", action="append", default=[],
                    help="one more ptxlitmus verify argument (repeatable)")
    ap.add_argument("--published", metavar="DIR",
                    help="check the evaluator against the published verdicts of DIR")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.print is not None:
        sys.stdout.write(gen.generate(args.print))
        return 0
    if not os.path.isdir(os.path.join(args.spec, "cat")):
        print("SKIP: %s/cat not found (Dat3M's cat files live in ../shared/spec)" % args.spec)
        return 77
    args.cat_model = load_model(args.model, args.spec)
    if args.published:
        return published(args)
    tests = []
    for part in (args.seeds or "").split(","):
        if part.strip():
            a, _, b = part.strip().partition("-")
            tests += [("seed %d" % s, gen.generate(s)) for s in range(int(a), int(b or a) + 1)]
    for f in args.files:
        tests.append((f, open(f).read()))
    if not tests:
        ap.error("give --seeds or files")
    stats = dict(compared=0, agree=0, differ=0, unsupported=0, too_big=0, tool_errors=0,
                 tool_limits=0,
                 eval_s=0.0, tool_s=0.0)
    evals = [(name, text, evaluate(name, text, args, stats)) for name, text in tests]
    done = [(name, text, ev) for name, text, ev in evals if not isinstance(ev, str)]
    t0 = time.time()
    results = run_ptxlitmus(args.ptxlitmus, args.model, [x[1] for x in done], args.extra) \
        if done else []
    stats["tool_s"] = time.time() - t0
    for name, _, ev in evals:
        if isinstance(ev, str) and args.verbose:
            print("%s: %s" % (name, ev))
    for (name, _, ev), res in zip(done, results):
        msg = compare(name, ev, res, stats)
        if msg:
            print("%s: %s" % (name, msg))
    print("dat3m %s: %d tests, %d compared, %d agree, %d differ; %d unsupported, %d too large "
          "(> %d candidates), %d past a ptxlitmus limit, %d ptxlitmus errors; evaluator %.1f s, "
          "ptxlitmus %.1f s"
          % (args.model, len(tests), stats["compared"], stats["agree"], stats["differ"],
             stats["unsupported"], stats["too_big"], args.limit, stats["tool_limits"],
             stats["tool_errors"], stats["eval_s"], stats["tool_s"]))
    return 1 if stats["differ"] or stats["tool_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
