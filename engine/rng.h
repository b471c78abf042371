/* rng: the project's one random generator (xoshiro256**, seeded through splitmix64).
 *
 * Randomness is explicit: every program, game and bot owns an rng_t and seeds it, so the same
 * seed gives the same games byte for byte on every machine. Never use rand() or time().
 */
#ifndef PICKET_RNG_H
#define PICKET_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng_t;

/* Mix a 64-bit value into a well-spread one (splitmix64's finaliser). */
uint64_t rng_mix(uint64_t x);
/* Derive an independent seed from a base seed and a stream number. */
uint64_t rng_derive(uint64_t seed, uint64_t stream);

void rng_seed(rng_t *rng, uint64_t seed);
uint64_t rng_next(rng_t *rng);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint32_t rng_below(rng_t *rng, uint32_t n);
/* The same for a 64-bit bound, n > 0. */
uint64_t rng_below64(rng_t *rng, uint64_t n);
/* Uniform double in [0, 1). */
double rng_unit(rng_t *rng);
/* Fisher-Yates shuffle of n bytes. */
void rng_shuffle_u8(rng_t *rng, uint8_t *a, int n);

#endif
