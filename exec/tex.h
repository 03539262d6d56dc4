/* exec/tex.h — textures and surfaces in the executor: the decoded form of the texture
 * instructions tex, tld4, txq, istypep (ISA §9.7.9) and the surface instructions suld, sust,
 * sured, suq (§9.7.10), their per-lane semantics, and the context's table of texture and surface
 * objects (§5.3 opaque types; created by ptxeCreateTextureObject / ptxeCreateSurfaceObject).
 * Implemented in exec/tex.c; exec/load.c decodes the operands, exec/ldst.c (h_tex) runs a
 * warp's lanes through tex_lane. */
#ifndef PTX_EXEC_TEX_H
#define PTX_EXEC_TEX_H
#include <stddef.h>
#include <stdint.h>
#include "include/ptxexec.h"

/* geometries (§9.7.9.3 .geom, §9.7.10.1) */
enum { TG_1D, TG_2D, TG_3D, TG_A1D, TG_A2D, TG_CUBE, TG_ACUBE, TG_COUNT };
/* instructions */
enum { TO_TEX, TO_TLD4, TO_TXQ, TO_ISTYPEP, TO_SULD, TO_SUST, TO_SURED, TO_SUQ };
/* out-of-range handling of surface instructions (.trap, .clamp, .zero: §9.7.10.1) */
enum { SC_TRAP, SC_CLAMP, SC_ZERO };

typedef struct xtex {
    uint8_t op;        /* TO_* */
    uint8_t geom;      /* TG_* */
    uint8_t dtype;     /* tex/tld4: isa_type of the result (u32, s32, f32, f16, f16x2: .v2) */
    uint8_t fcoord;    /* tex/tld4: .ctype is .f32 (else .s32) */
    uint8_t comp;      /* tld4: component r, g, b, a = 0..3 */
    uint8_t query;     /* txq/suq: TQ_* (exec/tex.c); istypep: 1 texref, 2 samplerref, 3 surfref */
    uint8_t level;     /* tex.level: s[1 + ncoord] is the lod; txq.level: s[1] is the lod */
    uint8_t ncoord;    /* coordinate elements read (s[1 ..]) */
    uint8_t noff;      /* tex/tld4: offset elements (after the coordinates and lod) */
    uint8_t pred;      /* tex/tld4: d[4] (.v2: d[2]) is the residency predicate */
    uint8_t clampm;    /* SC_* */
    uint8_t vec;       /* suld/sust: vector width */
    uint8_t size;      /* suld/sust/sured: bytes per element (.b8 .. .b64, sured type) */
    uint8_t fmt;       /* sust.p / sured.p: formatted (sample-addressed) */
    uint8_t redop;     /* sured: isa_atom_op */
    uint8_t redtype;   /* sured: isa_type (.u32 .s32 .b32 .u64 .s64 .b64) */
} xtex;

/* Coordinate elements a geometry reads: 1d 1, 2d 2, 3d 3, a1d 2, a2d 3, cube 3, acube 4. */
int tex_geom_coords(int geom);
/* Decode the mnemonic text (opcode with qualifiers) into t; -1 with a reason in why. */
int tex_decode(const char *opcode, xtex *t, char *why, size_t whylen);

/* What a lane's execution needs from the engine: memory access (a NULL result means the engine
 * has reported a fault) and a buffer for a fault message of its own. */
typedef struct {
    ptxeCtx *ctx;
    uint8_t *(*mem)(void *cookie, uint64_t addr, unsigned n, int write);
    void *cookie;
    char *msg; size_t msglen;
} tex_env;
/* One lane: s are the source operand values as exec/load.c laid them out, d the destinations.
 * 0, or -1 on a fault (message in e->msg unless e->mem reported it). */
int tex_lane(const tex_env *e, const xtex *t, const uint64_t *s, uint64_t *d);
/* Free the context's object table (ptxeCtxDestroy). */
void tex_ctx_free(ptxeCtx *ctx);
#endif
