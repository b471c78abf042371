/* rng: the project's one random generator (xoshiro256**, seeded through splitmix64).
 *
 * Randomness is explicit: every program, game and bot owns an rng_t and seeds it, so the same
 * seed gives the same games byte for byte on every machine. Never use rand() or time().
 */
#ifndef PICKET_RNG_H
#define PICKET_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng_t;

/* Mix a 64-bit value into a well-spread one (splitmix64's finaliser). */
uint64_t rng_mix(uint64_t x);
/* Derive an independent seed from a base seed and a stream number. */
uint64_t rng_derive(uint64_t seed, uint64_t stream);

/* SipHash-2-4 (Aumasson and Bernstein, 2012) of len bytes under a 128-bit key (k0, k1): a keyed
 * pseudo-random function, so its outputs do not lead back to the key (rng_derive, by contrast, can
 * be inverted step by step). */
uint64_t rng_siphash(uint64_t k0, uint64_t k1, const uint8_t *msg, size_t len);
/* A seed for someone who must not learn `key` (an engine's own seed, when the key also gives the
 * deals): SipHash-2-4 of `stream` under a key made from `key`. */
uint64_t rng_keyed(uint64_t key, uint64_t stream);

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
