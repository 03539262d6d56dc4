#!/usr/bin/env bash
# Issue #16, output paths (docs/reliability.md, "Threat model"): an output never names one of the
# run's inputs (any spelling: x, ./x, a symlink, a hard link); an output named on the command
# line goes wherever the user says (issue #30), a device only with --allow-outside; the outputs
# a launch spec names stay inside its folder unless --allow-outside ('..', absolute paths,
# symlinked folders); a missing output folder is refused before any work; '-' and /dev/stdout
# are always allowed, the mode of a replaced file is kept, and a run killed with SIGTERM/SIGINT
# leaves no temporary file beside its output.  A refusal exits 2 and touches no file.
set -u
bin=$1
case "$bin" in /*) ;; *) bin=$PWD/${bin#./} ;; esac
root=$PWD
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
w=$tmp/w
mkdir -p "$w/sub" "$w/s" "$tmp/outside"
cd "$w" || exit 2
cp "$root/suites/isa/MP.litmus" in.litmus
cp in.litmus s/MP.litmus
printf 'suite: s\ntests:\n  - file: MP.litmus\n    expect: { ptx: Ok }\n' > s/manifest.yaml
cp "$root/tests/errors/run/saxpy.ptx" .
spec() {   # spec NAME OUTPUT-FILE: a launch spec writing buffer y to OUTPUT-FILE
  printf 'module: saxpy.ptx\nkernel: saxpy\ngrid: 1\nblock: 32\nbuffers:\n  x: { type: f32, count: 32, init: { iota: 0 } }\n  y: { type: f32, count: 32, init: { fill: 1 } }\nparams:\n  - { s32: 32 }\n  - { f32: 2 }\n  - { buffer: x }\n  - { buffer: y }\noutputs:\n  - { buffer: y, file: %s }\n' "$2" > "$1"
}
spec spec.yaml y.bin
cp -p in.litmus in.orig; cp -p spec.yaml spec.orig; cp -p saxpy.ptx ptx.orig
snapshot() { find "$w" "$tmp/outside" -newer "$tmp/stamp" ! -type d | sort; }

# refused NAME WANT-REGEX ARGS...: exit 2, the message, no file created or changed
refused() {
  local name=$1 want=$2; shift 2
  sleep 0.01; touch "$tmp/stamp"; sleep 0.01
  "$bin" "$@" > "$tmp/out" 2> "$tmp/err"; local st=$?
  if [ "$st" -ne 2 ]; then bad "$name: exit $st, expected 2 ($(head -c 300 "$tmp/err"))"; return; fi
  grep -Eq -- "$want" "$tmp/err" || { bad "$name: message '$(head -n1 "$tmp/err")' does not match /$want/"; return; }
  local touched; touched=$(snapshot)
  [ -z "$touched" ] || { bad "$name: files written: $touched"; return; }
  pass=$((pass + 1))
}
accepted() {   # accepted NAME ARGS...: exit 0
  local name=$1; shift
  "$bin" "$@" > "$tmp/out" 2> "$tmp/err" && pass=$((pass + 1)) || bad "$name: exit $?: $(head -n2 "$tmp/err")"
}
is_input='^ptxlitmus [a-z]+: found output .*, which is the input .*, expected another file$'
outside='^ptxlitmus [a-z]+: found output .*, which is outside the working folder.*, expected a path inside it \(or --allow-outside\)$'

# --- an output that is an input: every command, every spelling --------------------------------
refused "verify --json in in" "found output in.litmus, which is the input in.litmus, expected another file" \
  verify -q --json in.litmus in.litmus
refused "verify --json ./in in" "found output ./in.litmus, which is the input in.litmus" verify -q --json ./in.litmus in.litmus
refused "verify --json in ./in" "$is_input" verify -q --json in.litmus ./in.litmus
ln -s in.litmus link.json; ln in.litmus hard.json
refused "verify --json SYMLINK-TO-INPUT" "found output link.json, which is the input in.litmus" verify -q --json link.json in.litmus
refused "verify --json HARDLINK-OF-INPUT" "found output hard.json, which is the input in.litmus" verify -q --json hard.json in.litmus
refused "verify --json ABSOLUTE-INPUT --allow-outside" "$is_input" verify -q --allow-outside --json "$w/in.litmus" in.litmus
refused "verify --json input of a directory" "which is the input s/MP.litmus" verify -q --json s/MP.litmus s
cp "$root/model/ptx.cat" my.cat
refused "verify --json the --cat file" "found output ./my.cat, which is the input my.cat" verify -q --cat my.cat --json ./my.cat in.litmus
refused "suite --json manifest" "found output s/manifest.yaml, which is the input s/manifest.yaml" suite -q --json s/manifest.yaml s
refused "suite --csv test" "found output ./s/MP.litmus, which is the input s/MP.litmus" suite -q --csv ./s/MP.litmus s
refused "suite --junit test" "$is_input" suite -q --junit s/MP.litmus s
"$bin" verify -q --json a.json in.litmus || bad "verify --json a.json: exit $?"
cp -p a.json a.orig
refused "merge --json input" "found output a.json, which is the input a.json" merge -q --json a.json a.json
refused "table --out input" "found output in.litmus, which is the input in.litmus" table -q --format csv --out in.litmus in.litmus
refused "table --out run input" "$is_input" table -q --format csv --out ./a.json a.json
refused "hw --json input" "found output in.litmus, which is the input in.litmus" hw --no-compile --json in.litmus in.litmus
refused "run --json spec" "found output spec.yaml, which is the input spec.yaml" run --json spec.yaml spec.yaml
refused "run --json module" "found output saxpy.ptx, which is the input ./saxpy.ptx" run --json saxpy.ptx spec.yaml
spec self.yaml self.yaml; cp -p self.yaml self.orig
refused "run output = spec" "^self.yaml:14:[0-9]+: found output ./self.yaml, which is the input self.yaml, expected another file$" run self.yaml
spec mod.yaml saxpy.ptx
refused "run output = module" "found output ./saxpy.ptx, which is the input ./saxpy.ptx" run mod.yaml
cmp -s in.litmus in.orig && cmp -s spec.yaml spec.orig && cmp -s saxpy.ptx ptx.orig && cmp -s a.json a.orig \
  && cmp -s self.yaml self.orig && pass=$((pass + 1)) || bad "an input was changed"

# --- named on the command line: wherever the user says (issue #30), a device only on purpose;
# --- named in a launch spec: inside the spec's folder unless --allow-outside ------------------
accepted "verify --json ABSOLUTE" verify -q --json "$tmp/outside/v.json" in.litmus
grep -q '"tool"' "$tmp/outside/v.json" && pass=$((pass + 1)) || bad "--json ABSOLUTE: no JSON written"
mkdir -p "$tmp/artifacts"
(cd "$tmp/outside" && "$bin" verify -q --json "$tmp/artifacts/r.json" "$w/in.litmus") \
  && grep -q '"tool"' "$tmp/artifacts/r.json" && pass=$((pass + 1)) || bad "--json /tmp/artifacts/r.json from another folder"
accepted "verify --json ABSOLUTE-INSIDE" verify -q --json "$w/sub/abs.json" in.litmus
accepted "verify --json ../" verify -q --json ../v2.json in.litmus
[ -s "$tmp/v2.json" ] && pass=$((pass + 1)) || bad "--json ../v2.json not written"
ln -s "$tmp/outside" esc
accepted "verify --json SYMLINKED-FOLDER/x" verify -q --json esc/v4.json in.litmus
accepted "verify --graph ../g" verify -q --graph ../g in.litmus
[ -s "$tmp/g/in.dot" ] && pass=$((pass + 1)) || bad "--graph ../g: no picture"
accepted "suite --junit /abs" suite -q --junit "$tmp/outside/j.xml" s
accepted "suite --csv ../" suite -q --csv ../s.csv --json sj.json s
accepted "merge --csv ../" merge -q --csv ../m.csv sj.json
accepted "table -o ../" table -q -o ../t.csv a.json
accepted "gen --out ../g" gen -q --out ../gen --shapes MP --max-threads 2
accepted "run --json ../" run --json ../r.json spec.yaml
for f in j.xml; do [ -s "$tmp/outside/$f" ] || bad "$f not written"; done
for f in s.csv m.csv t.csv r.json; do [ -s "$tmp/$f" ] && pass=$((pass + 1)) || bad "../$f not written"; done
refused "verify --json DEVICE" "^ptxlitmus verify: found output /dev/zero, which is a character device, expected a file \(or --allow-outside to write to the device\)$" \
  verify -q --json /dev/zero in.litmus
accepted "verify --json DEVICE --allow-outside" verify -q --allow-outside --json /dev/zero in.litmus
# a missing folder is found before the first test (issue #30), for every output
nofolder='^ptxlitmus [a-z]+: found output (folder )?nodir/[a-z.]+, whose folder nodir does not exist, expected an existing folder it may write to$'
refused "verify --json nodir/" "$nofolder" verify -q --json nodir/v.json in.litmus
refused "verify --graph nodir/" "$nofolder" verify -q --graph nodir/g in.litmus
refused "suite --csv nodir/" "$nofolder" suite -q --csv nodir/s.csv s
refused "suite --junit nodir/" "$nofolder" suite -q --json s.json --junit nodir/j.xml s
refused "merge --json nodir/" "$nofolder" merge -q --json nodir/m.json a.json
refused "table --out nodir/" "$nofolder" table -q --out nodir/t.csv in.litmus
refused "gen --out nodir/" "$nofolder" gen --out nodir/g --shapes MP
refused "run --json nodir/" "$nofolder" run --json nodir/r.json spec.yaml
refused "verify --graph FILE" "^ptxlitmus verify: found output in.litmus, which is not a folder, expected a folder \(or a name for a new one\)$" \
  verify -q --graph in.litmus a.json
# a spec's outputs stay in its folder
spec up.yaml ../y.bin
refused "run output ../" "^up.yaml:14:[0-9]+: found output \./\.\./y\.bin, which is outside the folder \. \(it resolves to $tmp/y\.bin\), expected a path inside it \(or --allow-outside\)$" run up.yaml
spec abs.yaml "$tmp/outside/y.bin"
refused "run output /abs" "found output $tmp/outside/y\.bin, which is outside the folder \." run abs.yaml
ln -s "$tmp/outside" spec-esc
spec esc.yaml spec-esc/y.bin
refused "run output through a symlinked folder" "which is outside the folder \. \(it resolves to $tmp/outside/y\.bin\)" run esc.yaml
accepted "run output /abs --allow-outside" run --allow-outside abs.yaml
[ -s "$tmp/outside/y.bin" ] && pass=$((pass + 1)) || bad "run --allow-outside: output not written"
spec sub/in-sub.yaml y.bin; cp saxpy.ptx sub/
accepted "run output beside a spec in a subfolder" run sub/in-sub.yaml
[ -s sub/y.bin ] && pass=$((pass + 1)) || bad "run: sub/y.bin not written"
accepted "--allow-outside after the files" run sub/in-sub.yaml --allow-outside
printf -- '--allow-outside\n' > args.txt
accepted "--allow-outside via @FILE" run @args.txt abs.yaml

# --- streams are always allowed -----------------------------------------------------------------
"$bin" verify -q --json /dev/stdout in.litmus > "$tmp/stdout.json" 2> "$tmp/err" \
  && grep -q '"tool"' "$tmp/stdout.json" && pass=$((pass + 1)) || bad "--json /dev/stdout: $(cat "$tmp/err")"
[ -c /dev/stdout ] || [ -L /dev/stdout ] || bad "/dev/stdout was replaced"
"$bin" verify -q --json - in.litmus | grep -q '"tool"' && pass=$((pass + 1)) || bad "--json -"
accepted "--json /dev/null" verify -q --json /dev/null in.litmus
[ -c /dev/null ] && pass=$((pass + 1)) || bad "/dev/null was replaced"
"$bin" suite -q --csv /dev/stdout s 2> /dev/null | grep -q '^suite,test' && pass=$((pass + 1)) || bad "suite --csv /dev/stdout"

# --- the mode of a replaced file is kept --------------------------------------------------------
for m in 600 640 604; do
  echo old > "mode$m.json"; chmod "$m" "mode$m.json"
  "$bin" verify -q --json "mode$m.json" in.litmus || bad "verify --json mode$m.json: exit $?"
  [ "$(stat -c %a "mode$m.json")" = "$m" ] && grep -q '"tool"' "mode$m.json" && pass=$((pass + 1)) \
    || bad "mode $m became $(stat -c %a "mode$m.json")"
done

# --- a killed verify --json leaves no temporary file, and the old output or a whole new one -----
# (a job started with & in a script inherits SIGINT ignored, and verify keeps an ignored signal
# ignored: env --default-signal gives it the default action an interactive ^C would meet; the
# exit status shows the signal arrived while verify was still running the 3 528 tests of suites/gen)
for sig in TERM INT; do
  echo '{"old": true}' > killed.json
  env --default-signal=INT "$bin" verify -q --json killed.json "$root/suites/gen" > /dev/null 2>&1 &
  pid=$!
  sleep 0.5
  kill -s "$sig" "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null; st=$?
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  [ "$st" -eq "$want" ] && pass=$((pass + 1)) || bad "SIG$sig: verify exit $st, expected $want"
  left=$(find "$w" -name '*.tmp*' -o -name '.*.tmp' | head -5)
  [ -z "$left" ] && pass=$((pass + 1)) || bad "SIG$sig left temporary files: $left"
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' killed.json 2> /dev/null \
    && pass=$((pass + 1)) || bad "SIG$sig: killed.json is neither the old nor a complete new file"
done

echo "output paths: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
