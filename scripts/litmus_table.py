# scripts/litmus_table.py — the litmus text of a generated test (scripts/gen_async_suite.py,
# scripts/gen_values_suite.py): header, doc string, initial state, one column per thread
# (head: its placement), rows padded to the widest cell, the condition.
def render(name, doc, init, threads, cond):
    heads = [h for h, _ in threads]; cols = [c for _, c in threads]
    n = max(len(c) for c in cols)
    cols = [c + [''] * (n - len(c)) for c in cols]
    w = [max(len(h), *(len(x) for x in c)) for h, c in zip(heads, cols)]
    out = ['PTX ' + name, '"' + doc.strip().replace('"', "'") + '"', '{ ' + init + ' }']
    out.append(' ' + ' | '.join(h.ljust(w[i]) for i, h in enumerate(heads)) + ' ;')
    for r in range(n):
        out.append(' ' + ' | '.join(cols[i][r].ljust(w[i]) for i in range(len(cols))) + ' ;')
    out.append(cond)
    return '\n'.join(out) + '\n'
