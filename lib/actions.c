/* Action ids, their structured form and their strings (see the encoding table in stpete.h). */
#include <stdio.h>
#include <string.h>

#include "stpete_internal.h"

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
static int format_action(const stpete_action *a, char *buf, size_t size)
{
    const char *card = a->card >= 0 ? stpete_cards[a->card].name : "";
    char tail[64] = "";
    if (a->displaced >= 0)
        snprintf(tail, sizeof tail, " displacing %s", stpete_cards[a->displaced].name);
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

STPETE_API int stpete_action_to_string(int id, char *buf, size_t size)
{
    stpete_action a;
    if (!buf || stpete_action_decode(id, &a) != STPETE_OK)
        return STPETE_E_INVALID_ARGUMENT;
    char tmp[STPETE_ACTION_STRING_MAX];
    int len = format_action(&a, tmp, sizeof tmp);
    if (size == 0)
        return STPETE_E_BUFFER_TOO_SMALL;
    snprintf(buf, size, "%s", tmp);
    return (size_t)len < size ? STPETE_OK : STPETE_E_BUFFER_TOO_SMALL;
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
    /* The canonical strings are the definition: compare against each (parsing is not a hot path). */
    char buf[STPETE_ACTION_STRING_MAX];
    for (int i = 0; i < ID_END; i++) {
        stpete_action a;
        stpete_action_decode(i, &a);
        format_action(&a, buf, sizeof buf);
        if (stpete_text_equals(buf, str, n)) {
            *id = i;
            return STPETE_OK;
        }
    }
    return STPETE_E_PARSE;
}
