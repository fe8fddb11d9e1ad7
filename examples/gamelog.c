/* The readable game log shared by the example programs. See gamelog.h. */
#include "gamelog.h"
#include "cli.h"


/* ---- the readable log, driven by events --------------------------------------------------------- */

/* A card's name as the state's game prints it (its edition's, §11, or the New Society's, §12.2), "?" if none. */
static const char *card_name(const stpete_state *st, int card)
{
    stpete_card_info info = STPETE_CARD_INFO_INIT;
    return stpete_game_get_card_info(stpete_state_game(st), card, &info) == STPETE_OK ? info.name : "?";
}

static void end_deal_line(gamelog *lg)
{
    if (lg->dealing) {
        fputc('\n', lg->out);
        lg->dealing = 0;
    }
}

static void print_row(FILE *out, const stpete_state *st, int row)
{
    int cards[16]; /* up to 10 after the 5-player opening (§12.4.1) */
    size_t n = 0;
    stpete_state_row(st, row, cards, 16, &n);
    fprintf(out, "  %s row:", stpete_source_name(row));
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s %s", i ? "," : "",
                card_name(st, cards[i]));
    fprintf(out, n ? "\n" : " (empty)\n");
}

static void print_player(FILE *out, const stpete_state *st, int seat)
{
    int vp = 0, cards[STPETE_NUM_CARDS];
    size_t n = 0;
    stpete_state_vp(st, seat, &vp);
    stpete_state_hand(st, seat, cards, STPETE_MAX_HAND, &n);
    fprintf(out, "  seat %d: %d R, %d VP, %zu hand card%s |", seat, stpete_state_rubles(st, seat), vp, n,
            n == 1 ? "" : "s");
    stpete_state_display(st, seat, cards, STPETE_NUM_CARDS, &n);
    for (size_t i = 0; i < n;) { /* the display is sorted by card type: group the copies */
        size_t j = i;
        while (j < n && cards[j] == cards[i])
            j++;
        fprintf(out, "%s ", i ? "," : "");
        if (j - i > 1)
            fprintf(out, "%zux ", j - i);
        fputs(card_name(st, cards[i]), out);
        i = j;
    }
    fputs(n ? "\n" : " (empty display)\n", out);
}

void gamelog_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    gamelog *lg = user;
    FILE *out = lg->out;
    char line[STPETE_EVENT_STRING_MAX];
    if (ev->kind != STPETE_EVENT_DEAL)
        end_deal_line(lg);
    /* The library's line of the event (the same words in every front end), with the details the state adds. */
    if (stpete_event_to_string(ev, st, line, sizeof line) != STPETE_OK)
        line[0] = '\0';
    switch (ev->kind) {
    case STPETE_EVENT_PHASE_START:
        fprintf(out, "\n== %s ==\n", line);
        print_row(out, st, STPETE_SOURCE_UPPER);
        print_row(out, st, STPETE_SOURCE_LOWER);
        fprintf(out, "  stacks: %d workers, %d buildings, %d aristocrats, %d trading cards\n",
                stpete_state_stack_size(st, STPETE_STACK_WORKER), stpete_state_stack_size(st, STPETE_STACK_BUILDING),
                stpete_state_stack_size(st, STPETE_STACK_ARISTOCRAT), stpete_state_stack_size(st, STPETE_STACK_TRADING));
        break;
    case STPETE_EVENT_DEAL: /* the deals of one step on one line */
        if (!lg->dealing)
            fprintf(out, "dealt from the %s stack to the upper row:", stpete_stack_name(ev->stack));
        fprintf(out, "%s %s", lg->dealing ? "," : "",
                card_name(st, ev->card));
        lg->dealing = 1;
        break;
    case STPETE_EVENT_DISPLACE: /* part of the BUY or PLAY line */
        break;
    case STPETE_EVENT_ROUND_END:
        fprintf(out, "\n-- %s --\n", line);
        for (int s = 0; s < stpete_game_num_players(stpete_state_game(st)); s++)
            print_player(out, st, s);
        break;
    case STPETE_EVENT_GAME_OVER:
        fprintf(out, "\n== %s ==\n", line);
        for (int s = 0; s < stpete_game_num_players(stpete_state_game(st)); s++)
            print_player(out, st, s);
        fprintf(out, "winner%s:", __builtin_popcount((unsigned)ev->amount) > 1 ? "s (shared)" : "");
        for (int s = 0; s < STPETE_MAX_PLAYERS; s++)
            if (ev->amount & (1 << s))
                fprintf(out, " seat %d", s);
        fputc('\n', out);
        break;
    default:
        fprintf(out, "%s\n", line);
        break;
    }
}

const char *gamelog_edition(const stpete_options *opts)
{
    return opts->edition == 2 ? "second edition" : "first edition";
}
