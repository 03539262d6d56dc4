/* report/graph.h — execution graphs (Graphviz DOT, and SVG when `dot` is installed) of the
 * executions of a litmus test the checker hands over (the witness, or with verify_opts.graph_show
 * every allowed execution / every forbidden one); docs/graphs.md. */
#ifndef PTX_LITMUS_GRAPH_H
#define PTX_LITMUS_GRAPH_H
#include "check/verify.h"

typedef struct graph_collector graph_collector;

graph_collector *graph_new(void);
void graph_free(graph_collector *g);
/* Call before verify_test with the result it will fill, and set opts.graph = graph_callback,
 * opts.graph_ctx = g.  The callback keeps every execution verify_test gives it. */
void graph_begin(graph_collector *g, verify_result *r);
void graph_callback(void *ctx, const mexecution *x);
/* After verify_test: how many executions were handed over (0 if the test failed), and the DOT
 * text of the i-th (the witness: an execution satisfying an `exists`, violating a `~exists` or
 * `forall`, else any execution; with --show all, each allowed state's execution; with --show
 * forbidden, each forbidden execution with the tested outcome).  Caller frees. */
int graph_count(const graph_collector *g, const verify_result *r);
char *graph_dot(graph_collector *g, const verify_result *r, int i);
/* Writes DIR/NAME.dot (and DIR/NAME.svg when `dot` is on PATH) atomically, NAME being the
 * test file's base name without .litmus.  Returns 0 or -1 with a message on stderr. */
int graph_write(const char *dir, const char *test_file, const char *dot);
int graph_have_dot(void);
/* The DOT of an execution handed over by another procedure (`check`'s witnesses). */
char *graph_dot_execution(const mexecution *x);
/* Writes dot to path (atomically); a path ending in .svg gets the DOT as .dot beside it and the
 * SVG drawn by Graphviz's dot.  0, or -1 with a message on stderr. */
int graph_write_file(const char *path, const char *dot);
#endif
