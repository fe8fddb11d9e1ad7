/* The readable game log shared by the example programs. See gamelog.h. */
#include "gamelog.h"

static const char *const phase_names[4] = { "worker", "building", "aristocrat", "trading" };
static const char *const stack_names[4] = { "worker", "building", "aristocrat", "trading" };
static const char *const source_names[4] = { "upper row", "lower row", "hand", "Observatory draw" };

/* ---- the readable log, driven by events --------------------------------------------------------- */

static void end_deal_line(gamelog *lg)
{
    if (lg->dealing) {
        fputc('\n', lg->out);
        lg->dealing = 0;
    }
}

static void print_row(FILE *out, const stpete_state *st, int row)
{
    int cards[STPETE_BOARD_SIZE];
    size_t n = 0;
    stpete_state_row(st, row, cards, STPETE_BOARD_SIZE, &n);
    fprintf(out, "  %s:", source_names[row]);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s %s", i ? "," : "", stpete_card_name(cards[i]));
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
        fputs(stpete_card_name(cards[i]), out);
        i = j;
    }
    fputs(n ? "\n" : " (empty display)\n", out);
}

void gamelog_event(const stpete_state *st, const stpete_event *ev, void *user)
{
    gamelog *lg = user;
    FILE *out = lg->out;
    if (ev->kind != STPETE_EVENT_DEAL)
        end_deal_line(lg);
    switch (ev->kind) {
    case STPETE_EVENT_PHASE_START:
        fprintf(out, "\n== Round %d, %s phase: seat %d starts ==\n", ev->round, phase_names[ev->phase], ev->seat);
        print_row(out, st, STPETE_SOURCE_UPPER);
        print_row(out, st, STPETE_SOURCE_LOWER);
        fprintf(out, "  stacks: %d workers, %d buildings, %d aristocrats, %d trading cards\n",
                stpete_state_stack_size(st, 0), stpete_state_stack_size(st, 1), stpete_state_stack_size(st, 2),
                stpete_state_stack_size(st, 3));
        break;
    case STPETE_EVENT_DEAL:
        if (!lg->dealing)
            fprintf(out, "dealt from the %s stack to the upper row:", stack_names[ev->stack]);
        fprintf(out, "%s %s", lg->dealing ? "," : "", stpete_card_name(ev->card));
        lg->dealing = 1;
        break;
    case STPETE_EVENT_BUY:
    case STPETE_EVENT_PLAY:
        fprintf(out, "seat %d %s %s from the %s", ev->seat, ev->kind == STPETE_EVENT_BUY ? "buys" : "plays",
                stpete_card_name(ev->card), source_names[ev->source]);
        if (ev->displaced >= 0)
            fprintf(out, ", displacing %s", stpete_card_name(ev->displaced));
        fprintf(out, ", for %d R (%d R left)\n", ev->price, stpete_state_rubles(st, ev->seat));
        break;
    case STPETE_EVENT_TAKE:
        fprintf(out, "seat %d takes %s from the %s into hand\n", ev->seat, stpete_card_name(ev->card),
                source_names[ev->source]);
        break;
    case STPETE_EVENT_PASS:
        fprintf(out, "seat %d passes (%d in a row)\n", ev->seat, ev->amount);
        break;
    case STPETE_EVENT_OBSERVATORY_DRAW:
        fprintf(out, "seat %d uses an Observatory on the %s stack and draws %s\n", ev->seat, stack_names[ev->stack],
                stpete_card_name(ev->card));
        break;
    case STPETE_EVENT_OBSERVATORY_DISCARD:
        fprintf(out, "seat %d discards the drawn %s\n", ev->seat, stpete_card_name(ev->card));
        break;
    case STPETE_EVENT_SCORING: {
        int vp = 0;
        stpete_state_vp(st, ev->seat, &vp);
        fprintf(out, "%s scoring: seat %d gets %+d R and %+d VP (now %d R, %d VP)\n", phase_names[ev->phase],
                ev->seat, ev->rubles, ev->vp, stpete_state_rubles(st, ev->seat), vp);
        break;
    }
    case STPETE_EVENT_PUB:
        fprintf(out, "Pub: seat %d buys %d VP for %d R\n", ev->seat, ev->amount, ev->rubles);
        break;
    case STPETE_EVENT_ROUND_END:
        fprintf(out, "\n-- End of round %d: %d card(s) of the lower row discarded, the upper row moves down --\n",
                ev->round, ev->amount);
        for (int s = 0; s < stpete_game_num_players(stpete_state_game(st)); s++)
            print_player(out, st, s);
        break;
    case STPETE_EVENT_MARKERS_MOVED:
        fprintf(out, "start-player markers move to the left neighbour\n");
        break;
    case STPETE_EVENT_LAST_ROUND:
        fprintf(out, "the last card of the %s stack is on the board: round %d is the final round\n",
                stack_names[ev->stack], ev->round);
        break;
    case STPETE_EVENT_FINAL_SCORING: {
        stpete_score s;
        stpete_state_score(st, ev->seat, &s);
        fprintf(out,
                "final scoring, seat %d: %d VP + %d (aristocrats: %d different) + %d (%d R) %+d (%d hand card%s)"
                " = %d VP, tie-break %d\n",
                ev->seat, s.vp_before, s.aristocrat_bonus, s.aristocrat_kinds, s.rubles_bonus, s.rubles,
                s.hand_penalty, s.hand_cards, s.hand_cards == 1 ? "" : "s", s.total, s.tie_break);
        break;
    }
    case STPETE_EVENT_GAME_OVER:
        fprintf(out, "\n== Game over after round %d ==\n", ev->round);
        for (int s = 0; s < stpete_game_num_players(stpete_state_game(st)); s++)
            print_player(out, st, s);
        fprintf(out, "winner%s:", __builtin_popcount((unsigned)ev->amount) > 1 ? "s (shared)" : "");
        for (int s = 0; s < STPETE_MAX_PLAYERS; s++)
            if (ev->amount & (1 << s))
                fprintf(out, " seat %d", s);
        fputc('\n', out);
        break;
    default:
        break;
    }
}

