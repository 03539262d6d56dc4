#!/usr/bin/env python3
"""bench/compare_device.py — runs launch specs (the YAML of `ptxlitmus run`) both on the executor
and on a GPU through the CUDA driver API (libcuda via ctypes), and compares every buffer bit for
bit, listing differences by buffer and index.  Without a GPU (no libcuda, no device) it prints
"no CUDA device: skipped (REASON)" and exits 0.

Usage: bench/compare_device.py [--bin ./ptxlitmus] SPEC.yaml...
       (no SPEC: suites/sanitizer/fixed_shared.yaml and hello.yaml, the executor benchmark)
Both sides run even when the other fails (an executor fault still launches the kernel on the GPU,
for compute-sanitizer wrapped around this script).
Exit: 0 all agree (or skipped), 1 a difference or a failure on either side, 2 bad input.
Needs only the Python standard library: PyYAML is used when installed, else the small reader
below, which takes the block/flow subset the launch specs are written in (a GPU machine may have
a bare python3)."""
import ctypes, ctypes.util, json, os, re, struct, subprocess, sys, tempfile

try:
    import yaml
except ImportError:   # a bare python3: mini_yaml below
    yaml = None

TYPES = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q", "s8": "b", "s16": "h", "s32": "i",
         "s64": "q", "b8": "B", "b16": "H", "b32": "I", "b64": "Q", "f32": "f", "f64": "d"}


def _scalar(t):
    """A plain or quoted YAML scalar as Python: int, float, bool, None or str."""
    if t[:1] in "\"'":
        return t[1:-1]
    if re.fullmatch(r"[-+]?(0x[0-9a-fA-F]+|0o?[0-7]+|[0-9]+)", t):
        return int(t, 0) if not re.fullmatch(r"[-+]?0[0-7]+", t) else int(t, 8)
    try:
        return float(t)
    except ValueError:
        pass
    return {"true": True, "false": False, "null": None, "~": None}.get(t, t)


def _flow(text, i=0):
    """The flow value ({...}, [...] or a scalar) at text[i:]: (value, next index)."""
    while text[i] == " ":
        i += 1
    if text[i] in "{[":
        close, out = ("}", {}) if text[i] == "{" else ("]", [])
        i += 1
        while True:
            while text[i] in " ,":
                i += 1
            if text[i] == close:
                return out, i + 1
            if close == "}":
                m = re.compile(r"\s*([^:,{}\[\]]+?)\s*:\s").match(text, i)
                if not m:
                    raise ValueError("expected 'key: ' at %r" % text[i:])
                out[_scalar(m.group(1))], i = _flow(text, m.end())
            else:
                v, i = _flow(text, i)
                out.append(v)
    m = re.compile(r"(\"[^\"]*\"|'[^']*'|[^,{}\[\]]*)").match(text, i)
    return _scalar(m.group(1).strip()), m.end()


def mini_yaml(text):
    """The launch-spec subset of YAML: top-level `key: value`, a `key:` followed by an indented
    block mapping or a `- ` sequence, values in flow style; # comments."""
    root, cur = {}, None
    for raw in text.splitlines():
        line = re.sub(r"\s+#.*$|^#.*$", "", raw).rstrip()
        if not line.strip():
            continue
        body = line.strip()
        if not line.startswith((" ", "-")):
            key, _, val = body.partition(":")
            if val.strip():
                root[key.strip()] = _flow(val.strip())[0]
                cur = None
            else:
                cur = root[key.strip()] = None
                curkey = key.strip()
        elif body.startswith("- "):
            if root[curkey] is None:
                root[curkey] = []
            root[curkey].append(_flow(body[2:])[0])
        else:
            key, _, val = body.partition(":")
            if root[curkey] is None:
                root[curkey] = {}
            root[curkey][_scalar(key.strip())] = _flow(val.strip())[0]
    return root


def load_spec(path):
    text = open(path).read()
    return yaml.safe_load(text) if yaml else mini_yaml(text)


def cuda():
    """(libcuda, context) or (None, reason)."""
    name = ctypes.util.find_library("cuda")
    if not name:
        return None, "libcuda.so not found"
    try:
        cu = ctypes.CDLL(name)
    except OSError as e:
        return None, "cannot load %s: %s" % (name, e)
    if cu.cuInit(0):
        return None, "cuInit failed (no driver or no device)"
    n = ctypes.c_int(0)
    if cu.cuDeviceGetCount(ctypes.byref(n)) or n.value == 0:
        return None, "no CUDA device"
    dev = ctypes.c_int(0)
    ctx = ctypes.c_void_p(0)
    cu.cuDeviceGet(ctypes.byref(dev), 0)
    if cu.cuCtxCreate_v2(ctypes.byref(ctx), 0, dev):
        return None, "cuCtxCreate failed"
    return cu, ctx


def initial(spec_dir, b):
    """The initial bytes of a buffer as `ptxlitmus run` makes them (zero unless init)."""
    fmt, count = TYPES[b["type"]], int(b["count"])
    size = struct.calcsize(fmt)
    init = b.get("init")
    if not init:
        return bytes(size * count)
    if "file" in init:
        return open(os.path.join(spec_dir, init["file"]), "rb").read()[: size * count]
    if "fill" in init:
        vals = [init["fill"]] * count
    elif "values" in init:
        vals = list(init["values"]) + [0] * (count - len(init["values"]))
    else:
        vals = [init["iota"] + i for i in range(count)]
    if fmt not in "fd":
        vals = [int(v) & ((1 << (8 * size)) - 1) for v in vals]
        fmt = fmt.upper() if fmt.islower() else fmt
    return struct.pack("<%d%s" % (count, fmt), *vals)


def on_executor(binary, spec_path, spec, tmp):
    """Every buffer after the launch on the executor (outputs written for all of them)."""
    d = os.path.dirname(os.path.abspath(spec_path))
    s = dict(spec)
    s["module"] = os.path.join(d, spec["module"])
    s["buffers"] = {}
    for name, b in (spec.get("buffers") or {}).items():
        b = dict(b)
        if b.get("init") and "file" in b["init"]:
            b["init"] = {"file": os.path.join(d, b["init"]["file"])}
        s["buffers"][name] = b
    s["outputs"] = [{"buffer": n, "file": os.path.join(tmp, n + ".out")} for n in s["buffers"]]
    p = os.path.join(tmp, "spec.yaml")
    with open(p, "w") as f:   # JSON is YAML (flow style), no PyYAML needed
        json.dump(s, f)
    r = subprocess.run([binary, "run", p, "--no-printf"], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("executor: exit %d: %s" % (r.returncode, r.stderr.strip()))
    return {n: open(os.path.join(tmp, n + ".out"), "rb").read() for n in s["buffers"]}


def on_gpu(cu, spec_path, spec):
    d = os.path.dirname(os.path.abspath(spec_path))
    text = open(os.path.join(d, spec["module"]), "rb").read() + b"\0"
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    if cu.cuModuleLoadData(ctypes.byref(mod), text):
        raise RuntimeError("cuModuleLoadData failed")
    kernel = spec.get("kernel")
    if not kernel:
        kernel = [l.split("(")[0].split()[-1] for l in text.decode().splitlines() if ".entry" in l][0]
    if cu.cuModuleGetFunction(ctypes.byref(fn), mod, kernel.encode()):
        raise RuntimeError("no kernel %s" % kernel)
    ptrs, sizes = {}, {}
    for name, b in (spec.get("buffers") or {}).items():
        data = initial(d, b)
        p = ctypes.c_uint64()
        cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(len(data), 1)))
        cu.cuMemcpyHtoD_v2(p, data, ctypes.c_size_t(len(data)))
        ptrs[name], sizes[name] = p, len(data)
    args = []
    for prm in spec.get("params") or []:
        (k, v), = prm.items()
        if k == "buffer":
            args.append(ctypes.c_uint64(ptrs[v].value))
        else:
            fmt = TYPES[k]
            raw = struct.pack("<" + fmt, v if fmt in "fd" else int(v))
            args.append(ctypes.create_string_buffer(raw, len(raw)))
    argv = (ctypes.c_void_p * max(len(args), 1))(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
    dim = lambda x: (list(x) + [1, 1, 1])[:3] if isinstance(x, list) else [int(x), 1, 1]
    g, bl = dim(spec["grid"]), dim(spec["block"])
    shm = int(spec.get("shared_bytes", 0))
    if spec.get("cooperative"):   # cooperative: true (grid.sync()): the driver's cooperative launch
        rc = cu.cuLaunchCooperativeKernel(fn, *g, *bl, shm, None, argv)
    else:
        rc = cu.cuLaunchKernel(fn, *g, *bl, shm, None, argv, None)
    if rc or cu.cuCtxSynchronize():
        raise RuntimeError("launch failed")
    out = {}
    for name, p in ptrs.items():
        buf = ctypes.create_string_buffer(sizes[name])
        cu.cuMemcpyDtoH_v2(buf, p, ctypes.c_size_t(sizes[name]))
        out[name] = buf.raw
        cu.cuMemFree_v2(p)
    cu.cuModuleUnload(mod)
    return out


def main(argv):
    binary = "./ptxlitmus"
    if argv[:1] == ["--bin"]:
        binary, argv = argv[1], argv[2:]
    cu, ctx = cuda()
    if cu is None:
        print("no CUDA device: skipped (%s)" % ctx)
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    specs = argv or [os.path.join(here, "..", "suites", "sanitizer", s)
                     for s in ("fixed_shared.yaml", "hello.yaml")]
    bad = 0
    for sp in specs:
        spec = load_spec(sp)
        # both sides always run: a fault the executor reports must not keep the kernel off the
        # GPU (compute-sanitizer, wrapped around this script, is to see the same launch)
        ex = gpu = None
        with tempfile.TemporaryDirectory() as tmp:
            try:
                ex = on_executor(binary, sp, spec, tmp)
            except RuntimeError as e:
                print("%s: %s" % (sp, e)); bad = 1
        try:
            gpu = on_gpu(cu, sp, spec)
        except RuntimeError as e:
            print("%s: GPU: %s" % (sp, e)); bad = 1
        if ex is None or gpu is None:
            if gpu is not None:
                print("%s: the GPU ran it (not compared: the executor stopped)" % sp)
            continue
        diffs = []
        for name, b in (spec.get("buffers") or {}).items():
            fmt = TYPES[b["type"]]; n = struct.calcsize(fmt)
            for i in range(0, len(gpu[name]), n):
                if ex[name][i:i + n] != gpu[name][i:i + n]:
                    diffs.append("%s[%d]: executor %s, GPU %s" % (name, i // n,
                                 struct.unpack("<" + fmt, ex[name][i:i + n])[0],
                                 struct.unpack("<" + fmt, gpu[name][i:i + n])[0]))
        print("%s: %s" % (sp, "agree bit for bit" if not diffs else "%d differences" % len(diffs)))
        for d in diffs[:20]:
            print("  " + d)
        bad |= bool(diffs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
