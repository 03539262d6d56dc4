/* base/text.c — escaping text for terminals, JSON and XML (see text.h). */
#include "base/text.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

size_t text_utf8_seq(const unsigned char *p, size_t n, unsigned *cp)
{
    unsigned c = p[0];
    if (c < 0x80) { *cp = c; return 1; }
    size_t len;
    unsigned min;
    if (c >= 0xc2 && c <= 0xdf) { len = 2; c &= 0x1f; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { len = 3; c &= 0x0f; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; c &= 0x07; min = 0x10000; }
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        c = c << 6 | (p[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
    *cp = c;
    return len;
}

static const char hex[] = "0123456789abcdef";

void text_term(sbuf *b, const char *s, int keep_lines)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n) {
        unsigned cp;
        size_t l = text_utf8_seq(p, n, &cp);
        int ok = l && (cp >= 0x20 || (keep_lines && (cp == '\n' || cp == '\t'))) && cp != 0x7f &&
                 !(cp >= 0x80 && cp <= 0x9f) &&
                 !(cp >= 0x202a && cp <= 0x202e) && !(cp >= 0x2066 && cp <= 0x2069);   /* bidi */
        if (ok) sb_put(b, (const char *)p, l);
        else {
            char e[4] = { '\\', 'x', hex[*p >> 4], hex[*p & 15] };
            sb_put(b, e, 4);
            l = 1;
        }
        p += l;
        n -= l;
    }
    if (!b->s) sb_put(b, "", 0);
}

int text_term_clean(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p >= 0x7f) {
            sbuf b = { 0 };
            text_term(&b, s, 0);
            int same = !strcmp(b.s, s);
            sb_free(&b);
            return same;
        }
    return 1;
}

char *text_term_dup(const char *s)
{
    if (!s) return NULL;
    sbuf b = { 0 };
    text_term(&b, s, 0);
    return b.s;
}

char *text_utf8_fix(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    unsigned cp;
    while (i < n) {
        size_t l = text_utf8_seq(p + i, n - i, &cp);
        if (!l) break;
        i += l;
    }
    if (i == n) return NULL;
    sbuf b = { 0 };
    sb_put(&b, s, i);
    while (i < n) {
        size_t l = text_utf8_seq(p + i, n - i, &cp);
        if (l) sb_put(&b, s + i, l);
        else { sb_put(&b, "\xef\xbf\xbd", 3); l = 1; }
        i += l;
    }
    return b.s;
}

void text_xml(sbuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n) {
        unsigned cp;
        size_t l = text_utf8_seq(p, n, &cp);
        if (!l) { sb_put(b, "\xef\xbf\xbd", 3); l = 1; }
        else if (cp == '&') sb_put(b, "&amp;", 5);
        else if (cp == '<') sb_put(b, "&lt;", 4);
        else if (cp == '>') sb_put(b, "&gt;", 4);
        else if (cp == '"') sb_put(b, "&quot;", 6);
        else if (cp == '\'') sb_put(b, "&apos;", 6);
        else if (cp == '\n') sb_put(b, "&#10;", 5);
        else if (cp == '\t') sb_put(b, "&#9;", 4);
        else if (cp == '\r') sb_put(b, "&#13;", 5);
        else if (cp < 0x20 || cp == 0xfffe || cp == 0xffff) sb_put(b, "\xef\xbf\xbd", 3);
        else sb_put(b, (const char *)p, l);
        p += l;
        n -= l;
    }
    if (!b->s) sb_put(b, "", 0);
}
