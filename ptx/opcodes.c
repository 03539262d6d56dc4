/* ptx/opcodes.c — the tables of ptx/opcodes.def and the mnemonic lookup (see opcodes.h). */
#include "ptx/opcodes.h"

#include <string.h>

#define PTX_LIT_L 1
#define PTX_LIT_N 0
const ptx_opinfo ptx_ops[PTX_I_COUNT] = {
    [PTX_I_NONE] = { "NONE", "", 0, 0, PTX_EX_NO, "", "", "" },
#define OP(id, mnemonic, kind, litmus, exec, section, title, doc) \
    [PTX_I_##id] = { #id, mnemonic, PTX_K_##kind, PTX_LIT_##litmus, PTX_EX_##exec, section, title, \
                      doc },
#include "ptx/opcodes.def"
};

const ptx_kindinfo ptx_kinds[PTX_K_COUNT] = {
#define KIND(name, doc) [PTX_K_##name] = { #name, doc },
#include "ptx/opcodes.def"
};

const ptx_groupinfo ptx_groups[] = {
#define GROUP(section, title) { section, title },
#include "ptx/opcodes.def"
};
const int ptx_ngroups = (int)(sizeof ptx_groups / sizeof ptx_groups[0]);

ptx_opcode ptx_op_lookup(const char *text, size_t len, size_t *base_len)
{
    ptx_opcode best = PTX_I_NONE;
    size_t bl = 0;
    if (base_len) *base_len = 0;
    if (!text || !len) return PTX_I_NONE;
    for (int i = 1; i < PTX_I_COUNT; i++) {
        const ptx_opinfo *o = &ptx_ops[i];
        if (o->kind == PTX_K_SYNTAX || o->mnemonic[0] != text[0]) continue;
        size_t n = strlen(o->mnemonic);
        if (n <= bl || n > len || memcmp(o->mnemonic, text, n) || (n < len && text[n] != '.'))
            continue;
        best = (ptx_opcode)i;   /* strictly longer: the first row of a mnemonic wins ties */
        bl = n;
    }
    if (base_len) *base_len = bl;
    return best;
}

const char *ptx_op_mnemonic(int op)
{
    return op > 0 && op < PTX_I_COUNT ? ptx_ops[op].mnemonic : "";
}

const char *ptx_kind_name(int kind)
{
    return kind >= 0 && kind < PTX_K_COUNT ? ptx_kinds[kind].name : "";
}
