/* base/version.h — the version of ptxlitmus, printed by `version` and written into outputs. */
#ifndef PTX_BASE_VERSION_H
#define PTX_BASE_VERSION_H
#define PTXLITMUS_VERSION "0.2.0"
#endif
