/* frontend/cat.h — loading a memory model written in the cat language (herd7's manual,
 * sections "Writing simple models" and "Model definitions", with Dat3M's spellings).
 *
 * cat_load_file / cat_load_text parse a model, expand its `include`s (once each, searched in
 * the including file's folder, then in `search[0..nsearch)`), and resolve every name to a slot
 * of an evaluation frame, so that evaluating the model (solver/cat_eval.h) does no string
 * lookup.  A name that no `let` (nor a function parameter, a match clause, ...) binds before its
 * use is a *base* name: the engine that evaluates the model provides it (po, rf, W, ...).
 * The universe `_` is always base name 0.  docs/cat.md describes the language accepted.
 *
 * Errors are one line "file:line:col: found X, expected Y" in err (err may be NULL).  The
 * model is immutable once loaded: several evaluations (and threads) may share it. */
#ifndef PTX_FRONTEND_CAT_H
#define PTX_FRONTEND_CAT_H
#include <stddef.h>

typedef struct cat_model cat_model;
typedef enum { CAT_ACYCLIC, CAT_IRREFLEXIVE, CAT_EMPTY } cat_check_kind;

/* Loads the model in the file at path.  Returns NULL with a message in err on failure. */
cat_model *cat_load_file(const char *path, const char *const *search, int nsearch, char *err,
                         size_t errlen);
/* Loads the model whose text is given; `file` names it in messages, and its folder is the
 * first place where includes are searched. */
cat_model *cat_load_text(const char *file, const char *text, const char *const *search,
                         int nsearch, char *err, size_t errlen);
/* The text of a model with a prelude (below), e.g. a bundled model's text with a line added. */
cat_model *cat_load_text_prelude(const char *file, const char *text, const char *const *search,
                                 int nsearch, const char *prelude, char *err, size_t errlen);
/* The same with a prelude: the file `prelude` (searched like an include) is loaded before the
   model, as herd and Dat3M load their standard library. */
cat_model *cat_load_file_prelude(const char *path, const char *const *search, int nsearch,
                                 const char *prelude, char *err, size_t errlen);
void cat_free(cat_model *m);

/* Files compiled into the program (the bundled models).  The search-list entry CAT_BUILTIN
   looks among them, and a path "<builtin>/NAME" names one.  The table must outlive loading. */
typedef struct { const char *name, *text; } cat_builtin;
#define CAT_BUILTIN "<builtin>"
void cat_set_builtins(const cat_builtin *files, int n);

/* The model's name: its leading quoted string, else its leading name(s) ("" when none). */
const char *cat_model_name(const cat_model *m);

/* The base names, in order of first use (index 0 is "_"), and where each is first used. */
int cat_nbase(const cat_model *m);
const char *cat_base_name(const cat_model *m, int i);
void cat_base_pos(const cat_model *m, int i, const char **file, int *line, int *col);

/* The number of checks (acyclic, irreflexive, empty; flags included) written in the model and
 * the files it includes; a procedure's checks count once however often it is called. */
int cat_ncheck_sites(const cat_model *m);
#endif
