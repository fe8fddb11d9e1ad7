/* Bits, byte lists and ASCII text (lib/facts/, code in bytes.c): the lowest set bit, rows (8 bytes) and hands
 * (4 bytes) searched and shortened as one machine word, and locale-independent ASCII case folding and comparison of
 * names. No card, no rule. Part of the facts layer: included through facts/facts.h. */
#ifndef STPETE_FACTS_BYTES_H
#define STPETE_FACTS_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Index of the lowest set bit of m != 0 (a portable fallback for compilers without the GCC builtin). */
static inline int stpete_bytes_lowest_bit(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
#else
    int i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

/* Bit i set for each nonzero byte i of 8 bytes (first byte = bit 0): display scans skip absent card types. */
static inline unsigned stpete_bytes_nonzero(const uint8_t *b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t x;
    __builtin_memcpy(&x, b, 8);
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint64_t high = (x | ((x & low7) + low7)) & ~low7; /* top bit of each byte: byte != 0 */
    return (unsigned)(((high >> 7) * UINT64_C(0x0102040810204080)) >> 56); /* gather the 8 top bits */
#else
    unsigned m = 0;
    for (int i = 0; i < 8; i++)
        m |= (unsigned)(b[i] != 0) << i;
    return m;
#endif
}

/* Rows (8 bytes) and hands (4 bytes): the search for a card and the removal of one are the check's and apply's
 * steps on every buy, take and play. Done on the list as one machine word (no loop, no data-dependent branch: which
 * card a random playout picks is unpredictable). Bytes past a list's count are 0, and stay 0. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define STPETE_WORD_LISTS 1
#endif

/* The copies of card among the first n (<= 8) bytes of list (a row; 8 readable bytes): the top bit of byte i is set
 * for each i < n with list[i] == card. One machine word: no loop, no branch on the data. */
static inline uint64_t stpete_bytes_match8(const uint8_t *list, int n, int card)
{
    uint64_t zero = 0;
#ifdef STPETE_WORD_LISTS
    uint64_t x;
    __builtin_memcpy(&x, list, 8);
    const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint64_t y = x ^ (UINT64_C(0x0101010101010101) * (uint8_t)card); /* 0 where the byte is card */
    zero = ~(((y & low7) + low7) | y | low7);                         /* top bit of each 0 byte */
    zero &= ((uint64_t)(n < 8) << (8 * n & 63)) - 1;                    /* within the list (n = 8: all), no branch */
#else
    for (int i = 0; i < n; i++)
        zero |= (uint64_t)(list[i] == card) << (8 * i + 7);
#endif
    return zero;
}

/* The same for the first n (<= 4) bytes of a 4-byte list (a hand). */
static inline uint32_t stpete_bytes_match4(const uint8_t *list, int n, int card)
{
    uint32_t zero = 0;
#ifdef STPETE_WORD_LISTS
    uint32_t x;
    __builtin_memcpy(&x, list, 4);
    const uint32_t low7 = UINT32_C(0x7F7F7F7F);
    uint32_t y = x ^ (UINT32_C(0x01010101) * (uint8_t)card);
    zero = ~(((y & low7) + low7) | y | low7);
    zero &= ((uint32_t)(n < 4) << (8 * n & 31)) - 1;
#else
    for (int i = 0; i < n; i++)
        zero |= (uint32_t)(list[i] == card) << (8 * i + 7);
#endif
    return zero;
}

/* Index of the first copy of card among the first n (<= 8) bytes of list (8 readable bytes), or -1. */
static inline int stpete_bytes_find8(const uint8_t *list, int n, int card)
{
    uint64_t m = stpete_bytes_match8(list, n, card);
    return m ? stpete_bytes_lowest_bit(m) / 8 : -1;
}

/* 1 if card is among the first n (<= 8) bytes of list, else 0: stpete_bytes_find8() >= 0 without a branch. */
static inline int stpete_bytes_holds8(const uint8_t *list, int n, int card)
{
    return stpete_bytes_match8(list, n, card) != 0;
}

/* Index of the first copy of card among the first n (<= 4) bytes of a 4-byte list (a hand), or -1. */
static inline int stpete_bytes_find4(const uint8_t *list, int n, int card)
{
    uint32_t m = stpete_bytes_match4(list, n, card);
    return m ? stpete_bytes_lowest_bit(m) / 8 : -1;
}

/* 1 if card is among the first n (<= 4) bytes of a 4-byte list (a hand), else 0. */
static inline int stpete_bytes_holds4(const uint8_t *list, int n, int card)
{
    return stpete_bytes_match4(list, n, card) != 0;
}

/* Remove list[i] from a list of 8 bytes (a row), sliding the rest down; the last byte becomes 0. */
static inline void stpete_bytes_remove8(uint8_t *list, uint8_t *n, int i)
{
#ifdef STPETE_WORD_LISTS
    uint64_t x;
    __builtin_memcpy(&x, list, 8);
    uint64_t keep = (UINT64_C(1) << (8 * i)) - 1; /* i <= 7 */
    x = (x & keep) | ((x >> 8) & ~keep);
    __builtin_memcpy(list, &x, 8);
#else
    for (int k = i + 1; k < 8; k++)
        list[k - 1] = list[k];
    list[7] = 0;
#endif
    (*n)--;
}

/* Remove list[i] from a list of 4 bytes (a hand), sliding the rest down; the last byte becomes 0. */
static inline void stpete_bytes_remove4(uint8_t *list, uint8_t *n, int i)
{
#ifdef STPETE_WORD_LISTS
    uint32_t x;
    __builtin_memcpy(&x, list, 4);
    uint32_t keep = (UINT32_C(1) << (8 * i)) - 1; /* i <= 3 */
    x = (x & keep) | ((x >> 8) & ~keep);
    __builtin_memcpy(list, &x, 4);
#else
    for (int k = i + 1; k < 4; k++)
        list[k - 1] = list[k];
    list[3] = 0;
#endif
    (*n)--;
}

/* Locale-independent ASCII case folding and blanks (tolower/isspace depend on the locale, e.g. Turkish 'I'). */
static inline int stpete_bytes_ascii_lower(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch;
}

static inline int stpete_bytes_ascii_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* ASCII case-insensitive equality of a NUL-terminated string with n bytes of text (card names, action strings). */
int stpete_bytes_text_equals(const char *name, const char *text, size_t n);

#endif /* STPETE_FACTS_BYTES_H */
