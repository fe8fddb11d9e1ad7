/* Action ids, their structured form and their strings (see the encoding table in stpete.h). */
#include <stdio.h>
#include <string.h>

#include "facts/facts.h"

STPETE_API int stpete_action_decode(int id, stpete_action *out)
{
    if (!out || id < 0 || id >= ID_END)
        return STPETE_E_INVALID_ARGUMENT;
    stpete_decode(id, out);
    return STPETE_OK;
}

STPETE_API int stpete_action_encode(const stpete_action *a, int *id)
{
    if (!a || !id)
        return STPETE_E_INVALID_ARGUMENT;
    int v = -1, r = -1;
    switch (a->kind) {
    case STPETE_ACTION_PASS:
        r = ID_PASS;
        break;
    case STPETE_ACTION_BUY:
    case STPETE_ACTION_PLAY:
    case STPETE_ACTION_OBSERVATORY_BUY:
        v = stpete_variant_of(a->card, a->card >= 0 && a->card < FIRST_TRADING ? -1 : a->displaced);
        if (v < 0)
            break;
        if (a->kind == STPETE_ACTION_PLAY)
            r = ID_PLAY + v;
        else if (a->kind == STPETE_ACTION_OBSERVATORY_BUY)
            r = ID_OBS_BUY + v;
        else if (a->source == STPETE_SOURCE_UPPER || a->source == STPETE_SOURCE_LOWER)
            r = (a->source == STPETE_SOURCE_UPPER ? ID_BUY_UPPER : ID_BUY_LOWER) + v;
        break;
    case STPETE_ACTION_TAKE:
        if (a->card >= 0 && a->card < STPETE_NUM_CARD_TYPES &&
            (a->source == STPETE_SOURCE_UPPER || a->source == STPETE_SOURCE_LOWER))
            r = (a->source == STPETE_SOURCE_UPPER ? ID_TAKE_UPPER : ID_TAKE_LOWER) + a->card;
        break;
    case STPETE_ACTION_OBSERVATORY:
        if (a->stack >= 0 && a->stack < STPETE_NUM_STACKS)
            r = ID_OBSERVATORY + a->stack;
        break;
    case STPETE_ACTION_OBSERVATORY_TAKE:
        r = ID_OBS_TAKE;
        break;
    case STPETE_ACTION_OBSERVATORY_DISCARD:
        r = ID_OBS_DISCARD;
        break;
    case STPETE_ACTION_PUB:
        if (a->amount >= 0 && a->amount <= ID_END - ID_PUB - 1)
            r = ID_PUB + a->amount;
        break;
    default:
        break;
    }
    if (r < 0)
        return STPETE_E_INVALID_ARGUMENT;
    *id = r;
    return STPETE_OK;
}

/* Writes the string into buf (size >= STPETE_ACTION_STRING_MAX); returns its length. */
static int format_action(const card_def *cards, const stpete_action *a, char *buf, size_t size)
{
    const char *card = a->card >= 0 ? cards[a->card].name : "";
    char tail[64] = "";
    if (a->displaced >= 0)
        snprintf(tail, sizeof tail, " displacing %s", cards[a->displaced].name);
    switch (a->kind) {
    case STPETE_ACTION_PASS:
        return snprintf(buf, size, "pass");
    case STPETE_ACTION_BUY:
        return snprintf(buf, size, "buy %s from %s%s", card, stpete_source_words[a->source], tail);
    case STPETE_ACTION_PLAY:
        return snprintf(buf, size, "play %s%s", card, tail);
    case STPETE_ACTION_TAKE:
        return snprintf(buf, size, "take %s from %s", card, stpete_source_words[a->source]);
    case STPETE_ACTION_OBSERVATORY:
        return snprintf(buf, size, "observatory %s", stpete_stack_words[a->stack]);
    case STPETE_ACTION_OBSERVATORY_BUY:
        return snprintf(buf, size, "observatory buy %s%s", card, tail);
    case STPETE_ACTION_OBSERVATORY_TAKE:
        return snprintf(buf, size, "observatory take");
    case STPETE_ACTION_OBSERVATORY_DISCARD:
        return snprintf(buf, size, "observatory discard");
    default:
        return snprintf(buf, size, "pub %d", a->amount);
    }
}

/* The canonical string of an action id or a chance outcome id ("chance Market", "chance markers 0 1 0 1"); its
 * length, or -1 for an id that is neither. */
static int format_id(const card_def *cards, int id, char *buf, size_t size)
{
    if (id >= 0 && id < ID_END) {
        stpete_action a;
        stpete_decode(id, &a);
        return format_action(cards, &a, buf, size);
    }
    if (id >= STPETE_CHANCE_CARD_FIRST && id < STPETE_CHANCE_MARKERS_FIRST)
        return snprintf(buf, size, "chance %s", cards[id - STPETE_CHANCE_CARD_FIRST].name);
    if (id >= STPETE_CHANCE_MARKERS_FIRST && id < CHANCE_END) {
        int code = id - STPETE_CHANCE_MARKERS_FIRST;
        return snprintf(buf, size, "chance markers %d %d %d %d", code % 4, code / 4 % 4, code / 16 % 4, code / 64);
    }
    return -1;
}

int stpete_id_to_string(const card_def *cards, int id, char *buf, size_t size)
{
    char tmp[STPETE_ACTION_STRING_MAX];
    int len = format_id(cards, id, tmp, sizeof tmp);
    if (!buf || len < 0)
        return STPETE_E_INVALID_ARGUMENT;
    if (size == 0)
        return STPETE_E_BUFFER_TOO_SMALL;
    snprintf(buf, size, "%s", tmp);
    return (size_t)len < size ? STPETE_OK : STPETE_E_BUFFER_TOO_SMALL;
}

STPETE_API int stpete_action_to_string(int edition, int id, char *buf, size_t capacity)
{
    if (edition != 1 && edition != 2)
        return STPETE_E_INVALID_ARGUMENT;
    return stpete_id_to_string(stpete_card_tables[edition - 1], id, buf, capacity);
}

STPETE_API int stpete_action_from_string(const char *str, int *id)
{
    if (!str || !id)
        return STPETE_E_INVALID_ARGUMENT;
    while (stpete_ascii_space((unsigned char)*str))
        str++;
    size_t n = strlen(str);
    while (n > 0 && stpete_ascii_space((unsigned char)str[n - 1]))
        n--;
    /* The canonical strings are the definition: compare against each of the ids its first word allows (parsing is
     * not a hot path, but replay records parse every action's string). */
    static const struct {
        const char *word;
        int lo, hi;
    } ranges[] = {
        { "pass", ID_PASS, ID_PASS + 1 },         { "buy ", ID_BUY_UPPER, ID_PLAY },
        { "play ", ID_PLAY, ID_TAKE_UPPER },      { "take ", ID_TAKE_UPPER, ID_OBSERVATORY },
        { "observatory ", ID_OBSERVATORY, ID_PUB }, { "pub ", ID_PUB, ID_END },
        { "chance ", STPETE_CHANCE_CARD_FIRST, CHANCE_END },
    };
    char buf[STPETE_ACTION_STRING_MAX];
    for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
        size_t w = strlen(ranges[r].word);
        if (n < w || !stpete_text_equals(ranges[r].word, str, w))
            continue;
        for (int e = 0; e < 2; e++) /* either edition's card names (§11) */
            for (int i = ranges[r].lo; i < ranges[r].hi; i++)
                if (format_id(stpete_card_tables[e], i, buf, sizeof buf) >= 0 && stpete_text_equals(buf, str, n)) {
                    *id = i;
                    return STPETE_OK;
                }
    }
    return STPETE_E_PARSE;
}
