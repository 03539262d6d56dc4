/* model/models.h — the memory models that ship with ptxlitmus: the cat files of model/,
 * compiled into the program (model/bundled.h).  `--model NAME` picks one; `--cat FILE` reads
 * any other.  Each bundled model also says which test features its ISA version has. */
#ifndef PTX_MODEL_MODELS_H
#define PTX_MODEL_MODELS_H

typedef enum {
    MODEL_PTX, /* model/ptx.cat: ISA 8.4 + .cluster + mixed proxies (the default) */
    MODEL_PTX75, /* model/ptx-v7.5.cat: ISA 7.5, no .cluster scope */
    MODEL_PTX60, /* model/ptx-v6.0.cat: ISA 6.0, no proxies, no .cluster scope */
    MODEL_RC11_SCOPED, /* model/rc11-scoped.cat: scoped C++ (RC11), the source model of llvm-check
                        */
    MODEL_COUNT
} model_kind;

const char *model_name(model_kind k);          /* "ptx", "ptx-v7.5", "ptx-v6.0" */
const char *model_file(model_kind k);          /* "ptx.cat", ... (a bundled file name) */
int model_parse(const char *s, model_kind *k); /* 0, or -1 for an unknown name */
const char *model_choices(void);   /* "ptx (or ptx-v8.4), ptx-v7.5, ...": every name */
int model_has_cluster(model_kind k);           /* the ISA version has the .cluster scope */
int model_has_proxies(model_kind k);           /* ... proxies, aliases and proxy fences */
int model_dat3m_events(model_kind k);  /* its instructions become events as in Dat3M's PTX front
                                          end (ptx-v7.5, ptx-v6.0: the published verdicts) */
#endif
