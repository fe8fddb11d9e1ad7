/* The action encoding's code (actions.h): the extension variants of §12.6, a variant of a card and target, the
 * New Society's ids decoded, and ids as strings (see the encoding table in stpete.h). */
#include <stdio.h>
#include <string.h>

#include "facts/facts.h"

/* The extension variants (stpete.h): the arithmetic of the table there. */
int stpete_actions_ext_variant(int card, int d)
{
    if (card >= FIRST_NEW_PLAIN && card < FIRST_NEW_TRADING)
        return d < 0 ? EXT_PLAIN + card - FIRST_NEW_PLAIN : -1;
    if (card >= FIRST_BLUE_TRADING && card < FIRST_ORANGE_TRADING && d >= STPETE_CARD_COFFEE_HOUSE &&
        d <= STPETE_CARD_TRADING_HOUSE)
        return EXT_OLD_BLUE + (card - FIRST_BLUE_TRADING) * 3 + (d - STPETE_CARD_COFFEE_HOUSE);
    if (card >= FIRST_ORANGE_TRADING && card < STPETE_NUM_CARD_TYPES && d == STPETE_CARD_SYCOPHANT)
        return EXT_OLD_ORANGE + card - FIRST_ORANGE_TRADING;
    if (card == STPETE_CARD_OBSHCHINA_COMMUNE)
        return d == STPETE_CARD_CZAR_AND_CARPENTER ? EXT_OBSHCHINA : d == STPETE_CARD_NEW_FARMER ? EXT_OBSHCHINA + 1 : -1;
    if (card == STPETE_CARD_NEW_SOCIETY)
        return d >= 0 && d < FIRST_BUILDING ? EXT_NEW_SOCIETY + d : d == STPETE_CARD_NEW_FARMER ? EXT_NEW_SOCIETY + 6 : -1;
    if (card >= FIRST_NEW_BLUE_TRADING && card < FIRST_NEW_ORANGE_TRADING) {
        int k = d >= FIRST_BUILDING && d < FIRST_ARISTOCRAT ? d - FIRST_BUILDING
                : d >= STPETE_CARD_COFFEE_HOUSE && d <= STPETE_CARD_TRADING_HOUSE
                    ? NUM_BUILDINGS + d - STPETE_CARD_COFFEE_HOUSE
                    : -1;
        return k < 0 ? -1 : EXT_NEW_BLUE + (card - FIRST_NEW_BLUE_TRADING) * 14 + k;
    }
    if (card >= FIRST_NEW_ORANGE_TRADING && card < CARD_TYPES_ALL) {
        int k = d >= FIRST_ARISTOCRAT && d < FIRST_TRADING ? d - FIRST_ARISTOCRAT
                : d == STPETE_CARD_SYCOPHANT                ? NUM_ARISTOCRATS
                                                            : -1;
        return k < 0 ? -1 : EXT_NEW_ORANGE + (card - FIRST_NEW_ORANGE_TRADING) * 8 + k;
    }
    return -1;
}

void stpete_actions_ext_split(int e, int *card, int *d)
{
    *d = -1;
    if (e < EXT_OLD_BLUE) {
        *card = FIRST_NEW_PLAIN + e;
    } else if (e < EXT_OLD_ORANGE) {
        *card = FIRST_BLUE_TRADING + (e - EXT_OLD_BLUE) / 3;
        *d = STPETE_CARD_COFFEE_HOUSE + (e - EXT_OLD_BLUE) % 3;
    } else if (e < EXT_OBSHCHINA) {
        *card = FIRST_ORANGE_TRADING + e - EXT_OLD_ORANGE;
        *d = STPETE_CARD_SYCOPHANT;
    } else if (e < EXT_NEW_SOCIETY) {
        *card = STPETE_CARD_OBSHCHINA_COMMUNE;
        *d = e == EXT_OBSHCHINA ? STPETE_CARD_CZAR_AND_CARPENTER : STPETE_CARD_NEW_FARMER;
    } else if (e < EXT_NEW_BLUE) {
        *card = STPETE_CARD_NEW_SOCIETY;
        *d = e - EXT_NEW_SOCIETY < 6 ? e - EXT_NEW_SOCIETY : STPETE_CARD_NEW_FARMER;
    } else if (e < EXT_NEW_ORANGE) {
        int k = (e - EXT_NEW_BLUE) % 14;
        *card = FIRST_NEW_BLUE_TRADING + (e - EXT_NEW_BLUE) / 14;
        *d = k < NUM_BUILDINGS ? FIRST_BUILDING + k : STPETE_CARD_COFFEE_HOUSE + k - NUM_BUILDINGS;
    } else {
        int k = (e - EXT_NEW_ORANGE) % 8;
        *card = FIRST_NEW_ORANGE_TRADING + (e - EXT_NEW_ORANGE) / 8;
        *d = k < NUM_ARISTOCRATS ? FIRST_ARISTOCRAT + k : STPETE_CARD_SYCOPHANT;
    }
}

int stpete_actions_variant_of(int card, int displaced)
{
    if (card < 0 || card >= CARD_TYPES_ALL)
        return -1;
    if (stpete_cards_shared(card)->trading &&
        (displaced < 0 || displaced >= CARD_TYPES_ALL || !(stpete_cards_shared(card)->targets >> displaced & 1u)))
        return -1;
    return stpete_actions_variant(card, displaced);
}

void stpete_actions_decode_ns(int id, stpete_action *out)
{
    stpete_action a = { STPETE_ACTION_PASS, -1, -1, -1, -1, -1 };
    if (id < ID_NS_OBS_BUY) {
        stpete_actions_decode_acquire(id, ID_NS_BUY_UPPER, ID_NS_BUY_LOWER, ID_NS_PLAY, ID_NS_TAKE_UPPER,
                                      ID_NS_TAKE_LOWER, 1, &a);
    } else if (id < ID_PRISON) {
        a.kind = STPETE_ACTION_OBSERVATORY_BUY;
        a.source = STPETE_SOURCE_OBSERVATORY;
        stpete_actions_ext_split(id - ID_NS_OBS_BUY, &a.card, &a.displaced);
    } else if (id < ID_PRISON_BUY) {
        a.kind = STPETE_ACTION_PRISON;
        a.source = STPETE_SOURCE_DISCARD;
        a.card = id - ID_PRISON;
    } else if (id <= ID_PRISON_PUT_BACK) {
        stpete_actions_decode_held(id, ID_PRISON_BUY, ID_PRISON_TAKE, STPETE_ACTION_PRISON_BUY,
                                   STPETE_ACTION_PRISON_TAKE, STPETE_ACTION_PRISON_PUT_BACK, STPETE_SOURCE_DISCARD, &a);
    } else if (id < ID_TRADING_HOUSE) {
        a.kind = STPETE_ACTION_GUILD_HALL;
        a.amount = id - ID_GUILD_HALL;
    } else {
        a.kind = STPETE_ACTION_TRADING_HOUSE;
        a.amount = id - ID_TRADING_HOUSE;
    }
    *out = a;
}

STPETE_API int stpete_action_decode(int id, stpete_action *out)
{
    if (!out || id < 0 || !stpete_actions_is_action(id, 1))
        return STPETE_E_INVALID_ARGUMENT;
    stpete_actions_decode(id, out);
    return STPETE_OK;
}

/* One function: one case per action kind (§4.2, §7.1, §7.2, §12.7.5-§12.7.7), every kind's ids side by side. */
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
    case STPETE_ACTION_PRISON_BUY:
        v = stpete_actions_variant_of(
            a->card,
            a->card >= 0 && a->card < CARD_TYPES_ALL && !stpete_cards_shared(a->card)->trading ? -1 : a->displaced);
        if (v < 0)
            break;
        if (a->kind == STPETE_ACTION_PLAY)
            r = stpete_actions_variant_id(ID_PLAY, ID_NS_PLAY, v);
        else if (a->kind == STPETE_ACTION_OBSERVATORY_BUY)
            r = stpete_actions_variant_id(ID_OBS_BUY, ID_NS_OBS_BUY, v);
        else if (a->kind == STPETE_ACTION_PRISON_BUY)
            r = ID_PRISON_BUY + v;
        else if (a->source == STPETE_SOURCE_UPPER)
            r = stpete_actions_variant_id(ID_BUY_UPPER, ID_NS_BUY_UPPER, v);
        else if (a->source == STPETE_SOURCE_LOWER)
            r = stpete_actions_variant_id(ID_BUY_LOWER, ID_NS_BUY_LOWER, v);
        break;
    case STPETE_ACTION_TAKE:
        if (a->card >= 0 && a->card < CARD_TYPES_ALL &&
            (a->source == STPETE_SOURCE_UPPER || a->source == STPETE_SOURCE_LOWER)) {
            int up = a->source == STPETE_SOURCE_UPPER;
            r = a->card < STPETE_NUM_CARD_TYPES ? (up ? ID_TAKE_UPPER : ID_TAKE_LOWER) + a->card
                                                : (up ? ID_NS_TAKE_UPPER : ID_NS_TAKE_LOWER) + a->card -
                                                      STPETE_NUM_CARD_TYPES;
        }
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
    case STPETE_ACTION_PRISON:
        if (a->card >= 0 && a->card < CARD_TYPES_ALL)
            r = ID_PRISON + a->card;
        break;
    case STPETE_ACTION_PRISON_TAKE:
        r = ID_PRISON_TAKE;
        break;
    case STPETE_ACTION_PRISON_PUT_BACK:
        r = ID_PRISON_PUT_BACK;
        break;
    case STPETE_ACTION_GUILD_HALL:
        if (a->amount >= 0 && a->amount <= 4)
            r = ID_GUILD_HALL + a->amount;
        break;
    case STPETE_ACTION_TRADING_HOUSE:
        if (a->amount == 0 || a->amount == 1)
            r = ID_TRADING_HOUSE + a->amount;
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
    case STPETE_ACTION_PRISON:
        return snprintf(buf, size, "prison %s", card);
    case STPETE_ACTION_PRISON_BUY:
        return snprintf(buf, size, "prison buy %s%s", card, tail);
    case STPETE_ACTION_PRISON_TAKE:
        return snprintf(buf, size, "prison take");
    case STPETE_ACTION_PRISON_PUT_BACK:
        return snprintf(buf, size, "prison put back");
    case STPETE_ACTION_GUILD_HALL:
        return snprintf(buf, size, "guild hall %d", a->amount);
    case STPETE_ACTION_TRADING_HOUSE:
        return snprintf(buf, size, a->amount ? "trading house buy" : "trading house decline");
    default:
        return snprintf(buf, size, "pub %d", a->amount);
    }
}

/* The canonical string of an action id or a chance outcome id ("chance Market", "chance markers 0 1 0 1"); its
 * length, or -1 for an id that is neither. */
static int format_id(const card_def *cards, int id, char *buf, size_t size)
{
    if (id >= 0 && stpete_actions_is_action(id, 1)) {
        stpete_action a;
        stpete_actions_decode(id, &a);
        return format_action(cards, &a, buf, size);
    }
    int card = id >= 0 ? stpete_actions_chance_card(id) : -1;
    if (card >= 0)
        return snprintf(buf, size, "chance %s", cards[card].name);
    if (id >= STPETE_CHANCE_MARKERS_FIRST && id < CHANCE_END) {
        int code = id - STPETE_CHANCE_MARKERS_FIRST;
        return snprintf(buf, size, "chance markers %d %d %d %d", code % 4, code / 4 % 4, code / 16 % 4, code / 64);
    }
    if (id >= STPETE_NS_CHANCE_MARKERS_FIRST && id < STPETE_NS_ID_END) { /* 5 players (§12.3): base 5 */
        int code = id - STPETE_NS_CHANCE_MARKERS_FIRST;
        return snprintf(buf, size, "chance markers5 %d %d %d %d", code % 5, code / 5 % 5, code / 25 % 5, code / 125);
    }
    return -1;
}

int stpete_actions_to_string(const card_def *cards, int id, char *buf, size_t size)
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
    return stpete_actions_to_string(stpete_card_tables[edition - 1], id, buf, capacity);
}

STPETE_API int stpete_action_from_string(const char *str, int *id)
{
    if (!str || !id)
        return STPETE_E_INVALID_ARGUMENT;
    while (stpete_bytes_ascii_space((unsigned char)*str))
        str++;
    size_t n = strlen(str);
    while (n > 0 && stpete_bytes_ascii_space((unsigned char)str[n - 1]))
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
        /* the New Society's (stpete.h) */
        { "buy ", ID_NS_BUY_UPPER, ID_NS_PLAY },  { "play ", ID_NS_PLAY, ID_NS_TAKE_UPPER },
        { "take ", ID_NS_TAKE_UPPER, ID_NS_OBS_BUY }, { "observatory ", ID_NS_OBS_BUY, ID_PRISON },
        { "prison ", ID_PRISON, ID_GUILD_HALL },  { "guild hall ", ID_GUILD_HALL, ID_TRADING_HOUSE },
        { "trading house ", ID_TRADING_HOUSE, ID_NS_END },
        { "chance ", STPETE_NS_CHANCE_CARD_FIRST, STPETE_NS_ID_END },
    };
    char buf[STPETE_ACTION_STRING_MAX];
    for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
        size_t w = strlen(ranges[r].word);
        if (n < w || !stpete_bytes_text_equals(ranges[r].word, str, w))
            continue;
        for (int e = 0; e < 2; e++) /* either edition's card names (§11) */
            for (int i = ranges[r].lo; i < ranges[r].hi; i++)
                if (format_id(stpete_card_tables[e], i, buf, sizeof buf) >= 0 &&
                    stpete_bytes_text_equals(buf, str, n)) {
                    *id = i;
                    return STPETE_OK;
                }
    }
    return STPETE_E_PARSE;
}
