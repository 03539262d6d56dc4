#!/usr/bin/env bash
# tests/cli/t_run_values.sh — a launch spec's float values in YAML's own spellings (issue #30:
# `.nan` was refused where a float is): .nan .NaN .NAN, .inf, +.inf, -.inf, -.Inf, as well as
# what strtod reads (nan, inf, 1.5e3), in fill, values and parameters; an integer type still
# refuses them.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
spec() {   # spec FILL A VALUES: saxpy y = A*x + y over 2 elements, x = VALUES, y = FILL
  printf 'module: %s/tests/errors/run/saxpy.ptx\nkernel: saxpy\ngrid: 1\nblock: 32\nbuffers:\n  x: { type: f32, count: 2, init: { values: [%s] } }\n  y: { type: f32, count: 2, init: { fill: %s } }\nparams:\n  - { s32: 2 }\n  - { f32: %s }\n  - { buffer: x }\n  - { buffer: y }\n' \
    "$PWD" "$3" "$1" "$2" > "$tmp/s.yml"
}
check() {   # check FILL A VALUES WANT: the buffer y as the JSON prints it
  spec "$1" "$2" "$3"
  got=$("$bin" run -q "$tmp/s.yml" --no-outputs --json - 2> "$tmp/e" |
        python3 -c "import json,sys; print(json.load(sys.stdin)['buffers']['y'])") \
    || { fail "fill $1, a $2, x [$3]: $(cat "$tmp/e")"; return; }
  [ "$got" = "$4" ] || fail "fill $1, a $2, x [$3]: y = $got, expected $4"
}
check .nan 1 "0, 1" "['nan', 'nan']"
check .NaN 1 "0, 1" "['nan', 'nan']"
check .NAN 1 "0, 1" "['nan', 'nan']"
check 1 1 ".inf, -.inf" "['inf', '-inf']"
check 1 1 "+.inf, -.Inf" "['inf', '-inf']"
check 1 1 ".INF, nan" "['inf', 'nan']"
check 0 -.inf "1, 2" "['-inf', '-inf']"
check 1.5e3 2 "1, 2" "[1502, 1504]"
spec .nan 1 "0, 1"
sed -i 's/y: { type: f32/y: { type: u32/' "$tmp/s.yml"
"$bin" run -q "$tmp/s.yml" --no-outputs 2> "$tmp/e" && fail ".nan for a u32 accepted"
grep -q "found '.nan', expected a u32 integer" "$tmp/e" || fail ".nan u32: $(cat "$tmp/e")"
[ "$fails" = 0 ] && echo "run values: ok"
[ "$fails" = 0 ]
