/* model/bundled.h — the cat models that ship with ptxlitmus (the .cat files of model/), compiled
 * into the program by scripts/embed.c (build/model_bundled.c). */
#ifndef PTX_MODEL_BUNDLED_H
#define PTX_MODEL_BUNDLED_H
#include "frontend/cat.h"
extern const cat_builtin model_bundled[];
extern const int model_nbundled;
#endif
