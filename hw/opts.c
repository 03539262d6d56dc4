/* hw/opts.c — the options of `ptxlitmus hw`, shared by the command line and the `hw:` field
 * of suite manifests (one parser, one set of messages). */
#include "hw/hw_int.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hw_opts_default(hw_opts *o)
{
    memset(o, 0, sizeof *o);
    o->instances = 65536;
    o->launches = 1;
    o->stress = HW_STRESS_NONE;
    o->placement = HW_PLACE_AS_TEST;
    o->stride = 128;
    snprintf(o->arch, sizeof o->arch, "sm_90");
    o->model = MODEL_PTX;
    o->seed = 1;
    o->timeout_s = 300;
    o->hang_timeout_s = 5;
}

static int whole(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int arch_ok(const char *s)
{
    /* sm_NN or sm_NNa with NN >= 70: the memory model's qualifiers need sm_70 (§8.1) */
    if (strncmp(s, "sm_", 3) || !isdigit((unsigned char)s[3]) || !isdigit((unsigned char)s[4]))
        return 0;
    size_t n = strlen(s);
    if (n > 7 || (n >= 6 && !isdigit((unsigned char)s[5]) && !(s[5] == 'a' && n == 6)) ||
        (n == 7 && (!isdigit((unsigned char)s[5]) || s[6] != 'a')))
        return 0;
    return atoi(s + 3) >= 70;
}

int hw_opt_set(hw_opts *o, const char *key, const char *val, char *why, size_t len)
{
    long long v;
    if (!val) val = "";
    if (!strcmp(key, "instances")) {
        if (whole(val, 1, 1LL << 26, &v)) goto num;
        o->instances = (long)v;
    } else if (!strcmp(key, "launches")) {
        if (whole(val, 1, 100000, &v)) goto num;
        o->launches = (int)v;
    } else if (!strcmp(key, "stride")) {
        if (whole(val, 8, 1 << 20, &v) || v % 8) {
            snprintf(why, len,
                     "found '%s' for stride, expected a multiple of 8 from 8 to 1048576 bytes",
                     val);
            return -1;
        }
        o->stride = (int)v;
    } else if (!strcmp(key, "seed")) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(val, &end, 10);
        if (!*val || *end || errno || val[0] == '-') goto num;
        o->seed = s;
    } else if (!strcmp(key, "timeout") || !strcmp(key, "hang-timeout")) {
        char *end;
        double d = strtod(val, &end);
        if (end != val && *end == 's' && !end[1]) end++;
        if (!*val || *end || !(d > 0 && d <= 86400)) {
            snprintf(why, len, "found '%s' for %s, expected a number of seconds above 0 up "
                               "to 86400 (fractions allowed)", val, key);
            return -1;
        }
        if (!strcmp(key, "timeout")) o->timeout_s = d;
        else o->hang_timeout_s = d;
    } else if (!strcmp(key, "stress")) {
        if (!strcmp(val, "none")) o->stress = HW_STRESS_NONE;
        else if (!strcmp(val, "lines")) o->stress = HW_STRESS_LINES;
        else if (!strcmp(val, "random")) o->stress = HW_STRESS_RANDOM;
        else {
            snprintf(why, len, "found '%s' for stress, expected none, lines or random", val);
            return -1;
        }
    } else if (!strcmp(key, "placement")) {
        if (!strcmp(val, "as-test")) o->placement = HW_PLACE_AS_TEST;
        else if (!strcmp(val, "shuffle")) o->placement = HW_PLACE_SHUFFLE;
        else {
            snprintf(why, len, "found '%s' for placement, expected as-test or shuffle", val);
            return -1;
        }
    } else if (!strcmp(key, "arch")) {
        if (!arch_ok(val)) {
            snprintf(why, len, "found '%s' for arch, expected sm_70 or later (e.g. sm_90)", val);
            return -1;
        }
        snprintf(o->arch, sizeof o->arch, "%s", val);
    } else if (!strcmp(key, "model")) {
        if (model_parse(val, &o->model)) {
            snprintf(why, len, "found '%s' for model, expected ptx, ptx-v7.5 or ptx-v6.0", val);
            return -1;
        }
    } else {
        snprintf(why, len,
                 "found the option '%s', expected instances, launches, stress, placement, "
                 "stride, arch, model, seed, timeout or hang-timeout",
                 key);
        return -1;
    }
    return 0;
num:
    snprintf(why, len, "found '%s' for %s, expected a whole number from %s", val, key,
             !strcmp(key, "instances")  ? "1 to 67108864"
             : !strcmp(key, "launches") ? "1 to 100000"
                                        : "0 to 18446744073709551615");
    return -1;
}

int hw_check_option(const char *key, const char *val, char *why, size_t len)
{
    hw_opts scratch;
    hw_opts_default(&scratch);
    return hw_opt_set(&scratch, key, val, why, len);
}
