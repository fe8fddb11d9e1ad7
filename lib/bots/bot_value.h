/* The learned evaluation of the `learned` bot (issue 43): a small network from a seat's observation tensor to the
 * seats' expected returns, in integer arithmetic, with its weights compiled in (bot_value_data.c, written by
 * tools/learn/learn.py). The layout, the units and the training are in doc/learning.md. Public API only. */
#ifndef STPETE_BOT_VALUE_H
#define STPETE_BOT_VALUE_H

#include <stdint.h>

#include <stpete/stpete.h>

/* Largest input and hidden layer of a network (the New Society's observation tensor and its extra inputs). */
#define BOT_VALUE_MAX_INPUTS 1024
#define BOT_VALUE_MAX_HIDDEN 256
/* The hidden layer's size is a multiple of this. */
#define BOT_VALUE_BLOCK 16

/* One network: inputs x (integers: the observation tensor's elements, then the extra inputs of bot_value_inputs()),
 * each clamped to [-limit, limit] (limit: twice the largest value of the training data, 0 for an input it never
 * had; tools/learn/export.py checks that no sum below can then leave int32), a hidden layer a = clamp(b1 + x W1, 0, 2^shift1) (the clipped ReLU, in units of 2^-shift1), logits
 * z = b2 + a W2 (units of 2^-(shift1 + shift2)) for the relative seats 0..outputs-1 (0 = the observing seat), and
 * returns softmax(z) over the seats of the game, exp read from the tables exp_hi and exp_lo. */
typedef struct bot_value_net {
    int inputs;             /* elements of x */
    int tensor;             /* of which the observation tensor's (the rest are the extra inputs) */
    int hidden;             /* elements of a; a multiple of BOT_VALUE_BLOCK */
    int outputs;            /* relative seats: 4 (the base game) or 5 (the New Society) */
    int shift1, shift2;     /* the fixed points above */
    const int16_t *limit;   /* [inputs] */
    const int16_t *w1;      /* [inputs][hidden] */
    const int32_t *b1;      /* [hidden] */
    const int16_t *w2;      /* [hidden][outputs] */
    const int64_t *b2;      /* [outputs] */
} bot_value_net;

/* A network's inputs that are not 0, in increasing index order, each clamped to its limit. */
typedef struct bot_value_x {
    int count;
    int16_t index[BOT_VALUE_MAX_INPUTS];
    int16_t value[BOT_VALUE_MAX_INPUTS];
} bot_value_x;

/* The softmax's exponential: exp(-d / 256) = exp_hi[d >> 4] * exp_lo[d & 15] / 2^60 for d < 4096 (16 nats), 0
 * beyond; both tables in units of 2^-30. */
#define BOT_VALUE_EXP_STEPS 256
extern const uint32_t bot_value_exp_hi[BOT_VALUE_EXP_STEPS];
extern const uint32_t bot_value_exp_lo[16];

/* The networks (bot_value_data.c): [0] the base game (both editions, 2-4 players), [1] the New Society (2-5). */
extern const bot_value_net bot_value_nets[2];

#endif /* STPETE_BOT_VALUE_H */
