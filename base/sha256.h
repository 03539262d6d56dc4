/* base/sha256.h — SHA-256 (FIPS 180-4), for the provenance of outputs: the hash of the model
 * text a verdict was computed with (issue #15, item 3). */
#ifndef PTX_BASE_SHA256_H
#define PTX_BASE_SHA256_H
#include <stddef.h>

/* Writes the 64 lowercase hex digits of SHA-256(data[0..n)) and a NUL into hex. */
void sha256_hex(const void *data, size_t n, char hex[65]);
#endif
