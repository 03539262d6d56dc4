/* base/text.h — text from inputs (test names, doc strings, file names, messages that quote
 * them) made safe for where it goes, once for every reporter (issue #16):
 *
 *   terminal  text_term: printable ASCII and valid UTF-8 of printable characters pass; every
 *             other byte (C0 controls other than '\n' and '\t' when allowed, DEL, the C1
 *             controls U+0080..U+009F, the bidirectional overrides U+202A..U+202E and
 *             U+2066..U+2069, bytes that are not valid UTF-8) is written \xHH, so an
 *             escape sequence in a test name cannot drive the terminal;
 *   JSON      text_utf8: invalid UTF-8 replaced by U+FFFD (one per bad byte); cJSON writes the
 *             control characters as \u00XX, so the document is valid JSON;
 *   XML       text_xml: & < > " ' as entities, '\n' '\t' '\r' as character references, other
 *             controls (not representable in XML 1.0) and invalid bytes as U+FFFD.
 *
 * "Valid UTF-8" is RFC 3629: shortest form, no surrogates, at most U+10FFFF. */
#ifndef PTX_BASE_TEXT_H
#define PTX_BASE_TEXT_H
#include <stddef.h>
#include "base/sbuf.h"

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 when the byte at p does not
 * begin one; *cp gets the code point. */
size_t text_utf8_seq(const unsigned char *p, size_t n, unsigned *cp);

/* Appends s escaped for a terminal; newlines and tabs pass when keep_lines. */
void text_term(sbuf *b, const char *s, int keep_lines);
/* s escaped for a terminal (one line: '\n' and '\t' escaped too), from xmalloc; NULL for NULL. */
char *text_term_dup(const char *s);
/* 1 when s needs no escape for a terminal (one line). */
int text_term_clean(const char *s);

/* NULL when s is valid UTF-8, else a copy (xmalloc) with U+FFFD for each invalid byte. */
char *text_utf8_fix(const char *s);

/* Appends s escaped for XML 1.0 text and attribute values. */
void text_xml(sbuf *b, const char *s);
#endif
