/* fuzz/fuzz_litmus_parse.c — libFuzzer target: the litmus parser alone (no verify), see
 * fuzz/fuzz_litmus.c. */
#define FUZZ_PARSE_ONLY 1
#include "fuzz/fuzz_litmus.c"
