/* net: a small learned evaluator, read from a file and evaluated with no library (issue 30).
 *
 * The net is two hidden layers of relu and one output: y = W3 relu(W2 relu(W1 x + b1) + b2) + b3,
 * its inputs 0/1, given as the indices of the ones (a sparse x: the first layer is a sum of
 * columns, as NNUE's accumulators). The file is written by tools/train_exchange.py: "PKNN", a
 * version, the sizes, a provenance text (the command, data and seed that made it), then the
 * float32 weights, little-endian. A file whose magic, version, sizes or length do not agree is
 * refused with one line; nothing here knows a game (engine/picket/picket_features.h says what
 * the inputs of Picket's exchange net mean).
 */
#ifndef PICKET_NET_H
#define PICKET_NET_H

#include <stddef.h>

enum { NET_VERSION = 1, NET_MAX_IN = 4096, NET_MAX_HIDDEN = 1024, NET_MAX_PROVENANCE = 4096 };

typedef struct net net_t;

/* The net in path; NULL with "PATH: reason" in err (missing, not a regular file, not a net,
 * another version, sizes out of range, cut short or too long). */
net_t *net_load(const char *path, char *err, size_t errlen);
/* The same from the file's len bytes in buf (a net built into the program), named `name` in a
 * refusal. */
net_t *net_read(const unsigned char *buf, size_t len, const char *name, char *err, size_t errlen);
void net_free(net_t *n);

int net_inputs(const net_t *n);
/* The provenance text the trainer wrote (NUL-terminated). */
const char *net_provenance(const net_t *n);

/* The output for the inputs whose indices are active[0..n_active) (each < net_inputs; others
 * are 0). Computed in double from the file's float weights, so that it agrees with the trainer's
 * float64 evaluation of the same weights to rounding. */
double net_eval(const net_t *n, const int *active, int n_active);

#endif
