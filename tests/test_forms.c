/* tests/test_forms.c — the litmus parser accepts exactly the valid PTX forms.
 *
 * tests/data/ptx-forms.tsv (made by scripts/ptx_forms.py with ptxas -arch=sm_90) lists some
 * 2 800 spellings of ld, st, atom, red, fence, membar and bar/barrier with ptxas's verdict.
 * Each is put into a two-thread litmus test and parsed: a form ptxas refuses must be refused;
 * a form ptxas accepts must be accepted, or refused with a message saying that it is not
 * supported in litmus tests (vector accesses, the .param space, newer fences ...). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/litmus.h"
#include "tests/check_main.h"

/* FORM with its operand placeholders replaced by litmus operands */
static void instantiate(const char *form, char *out, size_t n)
{
    static const struct { const char *from, *to;
    } sub2[] = { { "VD", "{%r0, %r1}" }, { "VB", "{%r2, %r3}" }, { "[A]", "[x]" }, { "D", "%r0" },
                 { "B", "%r2" },         { "C", "%r3" },         { NULL, NULL } },
      sub4[] = { /* .v4: vector operands of four elements */
                 { "VD", "{%r0, %r1, %r4, %r5}" },
                 { "VB", "{%r2, %r3, %r6, %r7}" },
                 { "[A]", "[x]" },
                 { "D", "%r0" },
                 { "B", "%r2" },
                 { "C", "%r3" },
                 { NULL, NULL }
      };
    const __typeof__(sub2[0]) *sub = strstr(form, ".v4") ? sub4 : sub2;
    size_t o = 0;
    for (const char *p = form; *p && o + 16 < n;) {
        int done = 0;
        for (int i = 0; sub[i].from && !done; i++) {
            size_t l = strlen(sub[i].from);
            /* placeholders are whole operands: preceded by a space, '[' or ',' */
            if (!strncmp(p, sub[i].from, l) && p > form && (p[-1] == ' ' || p[-1] == ',') &&
                (p[l] == 0 || p[l] == ',' || p[l] == ' ')) {
                o += (size_t)snprintf(out + o, n - o, "%s", sub[i].to);
                p += l;
                done = 1;
            }
        }
        if (!done) out[o++] = *p++;
    }
    out[o] = 0;
}

/* Spellings that the Dat3M grammar (LitmusPTX.g4) defines with its own meaning and that ptxas
   does not accept: fence.proxy.{texture,surface,constant,generic} (the mixed-proxy model's proxy
   fences) and bar.cta.sync|arrive INST{, ID{, QUORUM}} with constant operands. */
static int dat3m_form(const char *insn)
{
    if (!strncmp(insn, "fence.proxy.texture", 19) || !strncmp(insn, "fence.proxy.surface", 19) ||
        !strncmp(insn, "fence.proxy.constant", 20) || !strcmp(insn, "fence.proxy.generic"))
        return 1;
    /* fence.{weak,relaxed}.{cta,gpu,sys}: Dat3M's fencePhysic takes every memory order */
    const char *sc[] = { "cta", "gpu", "sys" };
    for (int i = 0; i < 3; i++) {
        char a[32], b[32];
        snprintf(a, sizeof a, "fence.weak.%s", sc[i]);
        snprintf(b, sizeof b, "fence.relaxed.%s", sc[i]);
        if (!strcmp(insn, a) || !strcmp(insn, b)) return 1;
    }
    if (strncmp(insn, "bar.cta.sync ", 13) && strncmp(insn, "bar.cta.arrive ", 15)) return 0;
    return strchr(insn, '%') == NULL;
}

START_TEST(parser_agrees_with_ptxas)
{
    FILE *f = fopen("tests/data/ptx-forms.tsv", "r");
    ck_assert_msg(f != NULL, "tests/data/ptx-forms.tsv missing (run from the repository root)");
    char line[512];
    int n = 0, bad_ok = 0, ok_ok = 0, ok_unsupported = 0, wrong = 0, dat3m = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *form = strtok(line, "\t\n"), *verdict = strtok(NULL, "\t\n"),
             *why = strtok(NULL, "\n");
        if (!form || !verdict) continue;
        char insn[256], text[1024], err[1024] = "";
        instantiate(form, insn, sizeof insn);
        snprintf(text, sizeof text,
                 "PTX form\n{ x=0; P0:r1=1; P0:r2=1; P0:r3=2; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 "
                 ";\n %s | ;\n"
                 "exists (x=0)\n",
                 insn);
        lit_test *t = lit_parse("form.litmus", text, err, sizeof err);
        n++;
        int ptxas_ok = !strcmp(verdict, "ok");
        if (ptxas_ok && t) ok_ok++;
        else if (ptxas_ok && strstr(err, "not supported")) ok_unsupported++;
        else if (!ptxas_ok && !t) bad_ok++;
        else if (!ptxas_ok && dat3m_form(insn)) dat3m++;
        else {
            wrong++;
            if (wrong <= 25)
                fprintf(stderr, "form '%s': ptxas %s%s%s, parser %s%s\n", insn, verdict,
                        why ? " - " : "", why ? why : "",
                        t ? "accepts" : "refuses: ", t ? "" : err);
        }
        lit_free(t);
    }
    fclose(f);
    fprintf(stderr,
            "forms: %d; valid accepted %d, valid refused as unsupported %d, invalid refused %d, "
            "Dat3M-dialect forms accepted %d, disagreements %d\n",
            n, ok_ok, ok_unsupported, bad_ok, dat3m, wrong);
    ck_assert_int_gt(n, 2000);
    ck_assert_int_eq(wrong, 0);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, parser_agrees_with_ptxas);
}

