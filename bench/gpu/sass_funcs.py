#!/usr/bin/env python3
"""bench/gpu/sass_funcs.py — the SASS of the litmus threads of a `ptxlitmus hw` program.

The harness's litmus threads are `__noinline__` device functions (hw_thread_N) that ptxas keeps
as local functions inside the kernel's code section (symbols `$hw_kernel$hw_thread_N`), so
`cuobjdump -sass -fun hw_thread_0` finds nothing (2026-11-26, run 3).  This reads the whole
`cuobjdump -sass PROGRAM` listing and the cubin's symbol table (`cuobjdump -xelf all PROGRAM`),
and prints each function whose name matches --match, instruction by instruction, with the
control bits of each instruction decoded from its upper 64 bits (the layout of Volta to Hopper:
stall 4 bits, yield 1, write scoreboard 3, read scoreboard 3, wait mask 6, reuse 4, from bit 41
of the upper word), written [B<wait mask>:R<read sb>:W<write sb>:y<yield bit>:S<stall>].
Then, per function, where a mbarrier phase check (SYNCS.PHASECHK) sets a scoreboard, whether the
next global load (LDG) or any instruction before it waits on that scoreboard: the question of
docs/hardware.md "The mbarrier finding".

usage: sass_funcs.py SASS.txt [CUBIN] [--match REGEX]
       without CUBIN (or without the symbols) the whole listing of each kernel is printed.
exit: 0, 2 unreadable input.
"""
import re
import struct
import sys

INSN = re.compile(r'^\s*/\*([0-9a-fA-F]{4,})\*/\s+(.*?)\s*;')
HI = re.compile(r'^\s*/\*\s*0x([0-9a-fA-F]{16})\s*\*/\s*$')
FUNC = re.compile(r'^\s*Function\s*:\s*(\S+)')


def elf_funcs(path):
    """[(name, section name, value, size)] of the FUNC symbols of an ELF64 little-endian file."""
    with open(path, 'rb') as f:
        b = f.read()
    if b[:4] != b'\x7fELF' or b[4] != 2:
        raise ValueError('not an ELF64 file')
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3A)
    secs = []
    for i in range(shnum):
        name, typ, _, _, off, size, link, _, _, entsize = struct.unpack_from(
            '<IIQQQQIIQQ', b, shoff + i * shentsize)
        secs.append((name, typ, off, size, link, entsize))

    def cstr(off):
        return b[off:b.index(b'\0', off)].decode('latin-1')
    shstr = secs[shstrndx][2]
    names = [cstr(shstr + s[0]) for s in secs]
    out = []
    for s in secs:
        if s[1] != 2:   # SHT_SYMTAB
            continue
        strtab = secs[s[4]][2]
        for k in range(s[3] // 24):
            st_name, st_info, _, shndx, value, size = struct.unpack_from('<IBBHQQ', b, s[2] + k * 24)
            if st_info & 0xF == 2 and shndx < len(names):   # STT_FUNC
                out.append((cstr(strtab + st_name), names[shndx], value, size))
    return out


def ctrl(hi):
    if hi is None:   # a listing without the encodings
        return '[?]', 0, 7
    c = (hi >> 41) & 0x1FFFFF
    stall, yld, wb, rb, wait = c & 0xF, (c >> 4) & 1, (c >> 5) & 7, (c >> 8) & 7, (c >> 11) & 0x3F
    mask = ''.join(str(i) if wait >> i & 1 else '-' for i in range(6))
    return (f'[B{mask}:R{"-" if rb == 7 else rb}:W{"-" if wb == 7 else wb}:y{yld}:S{stall:02d}]',
            wait, wb)


def listing(path):
    """{kernel: [(addr, text, hi)]} from a cuobjdump -sass listing."""
    kern, cur, pend = {}, None, None

    def flush(hi):
        nonlocal pend
        if pend is not None:
            cur.append((pend[0], pend[1], hi))
            pend = None
    with open(path, errors='replace') as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                if cur is not None:
                    flush(None)
                cur = kern.setdefault(m.group(1), [])
                continue
            m = INSN.match(line)
            if m and cur is not None:
                flush(None)   # the previous one had no upper word
                pend = (int(m.group(1), 16), m.group(2).strip())
                continue
            m = HI.match(line)
            if m and pend is not None:
                flush(int(m.group(1), 16))
    if cur is not None:
        flush(None)
    return kern


def phasechk_report(insns):
    """Lines: for each SYNCS.PHASECHK with a write scoreboard, is it awaited by the next LDG?"""
    rep = []
    for k, (addr, text, hi) in enumerate(insns):
        if 'SYNCS.PHASECHK' not in text:
            continue
        _, _, wb = ctrl(hi)
        if hi is None:
            rep.append(f'  {addr:04x} {text}: control bits unknown (no encodings in the listing)')
            continue
        if wb == 7:
            rep.append(f'  {addr:04x} {text}: sets no scoreboard')
            continue
        waited = None
        for addr2, text2, hi2 in insns[k + 1:]:
            _, wait2, _ = ctrl(hi2)
            if wait2 >> wb & 1 and waited is None:
                waited = (addr2, text2)
            if re.search(r'\bLDG\b|\bLD\.', text2):
                how = (f'waited on at {waited[0]:04x} {waited[1]}' if waited
                       else 'NOT waited on before it')
                rep.append(f'  {addr:04x} {text} (scoreboard {wb}) -> next load {addr2:04x} '
                           f'{text2}: scoreboard {wb} {how}')
                break
        else:
            rep.append(f'  {addr:04x} {text} (scoreboard {wb}): no load after it')
    return rep


def main(argv):
    args, match = [], r'hw_thread|hw_kernel'
    i = 1
    while i < len(argv):
        if argv[i] == '--match' and i + 1 < len(argv):
            match = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if not args:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 2
    try:
        kern = listing(args[0])
        funcs = elf_funcs(args[1]) if len(args) > 1 else []
    except (OSError, ValueError, struct.error) as e:
        print(f'sass_funcs: {e}', file=sys.stderr)
        return 2
    shown = 0
    for name, sec, value, size in funcs:
        kname = sec[len('.text.'):] if sec.startswith('.text.') else None
        if not kname or kname not in kern or not re.search(match, name) or size == 0:
            continue
        body = [x for x in kern[kname] if value <= x[0] < value + size]
        print(f'== {name} (in {kname}, 0x{value:x}..0x{value + size:x}, {len(body)} instructions)')
        for addr, text, hi in body:
            print(f'  {addr:04x} {ctrl(hi)[0]} {text}')
        for line in phasechk_report(body):
            print('phase check:' + line)
        shown += 1
    if shown == 0:
        print('sass_funcs: no function symbols matched: the whole listing of each kernel')
        for kname, body in kern.items():
            print(f'== {kname} ({len(body)} instructions)')
            for addr, text, hi in body:
                print(f'  {addr:04x} {ctrl(hi)[0]} {text}')
            for line in phasechk_report(body):
                print('phase check:' + line)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
