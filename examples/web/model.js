// From a game of the library (a State of the JavaScript package) to the model that render.js draws for one seat:
// the seat's view (§9), its legal actions with texts and prices, the board prices, each seat's next income, the
// final scoring. Every figure is the library's; nothing here knows a rule. The package is passed in as `S` (the
// module namespace), so this file runs in the page, in a worker and in Node alike.

/** Texts of what each board card would cost `seat` now (§5) and, for a trading card, what it could displace and
 * for how much (§6.2): {upper: [text], lower: [text], observatory: text|null}. */
export function boardPrices(S, state, seat, cards) {
  const display = [...new Set(state.display(seat))];
  const text = (card, source) => {
    if (!cards[card].trading) return `you pay ${state.price(seat, card, source)} R`;
    const options = [];
    for (const d of display) {
      try {
        options.push(`${cards[d].name} ${state.price(seat, card, source, d)} R`);
      } catch (e) {
        if (!(e instanceof S.InvalidArgumentError)) throw e; // not one of its targets (§6.2)
      }
    }
    return options.length ? `displacing ${options.join(', ')}` : 'nothing of yours to displace';
  };
  return {
    upper: state.row(S.Source.UPPER).map((card) => text(card, S.Source.UPPER)),
    lower: state.row(S.Source.LOWER).map((card) => text(card, S.Source.LOWER)),
    observatory: state.observatoryCard >= 0 ? text(state.observatoryCard, S.Source.OBSERVATORY)
      // the Debtor's Prison's card (§12.7.5; the view's observatory_card holds it), bought without a row discount
      : state.prisonCard >= 0 ? text(state.prisonCard, S.Source.DISCARD) : null,
  };
}

/** The income each seat gets at the next scoring (§4.4, with §7.1's face-down Observatories and §7.5) from the
 * displays as they are: the library's own scoring events on a copy of the game in which every seat passes (an
 * Observatory draw is discarded, a Pub buys nothing). {phase: name, seats: [{rubles, vp}]}, or null when no
 * scoring is left (the final round's trading phase, the end). In the trading phase it is the next round's worker
 * scoring. */
export function nextIncome(S, state) {
  if (state.isTerminal) return null;
  const copy = state.clone();
  try {
    copy.enableEventQueue();
    for (let step = 0; step < 64 && !copy.isTerminal; step++) {
      const legal = copy.legalActions();
      const quiet = legal.find((a) => a.kind === S.ActionKind.PASS)
        ?? legal.find((a) => a.kind === S.ActionKind.OBSERVATORY_DISCARD)
        ?? legal.find((a) => a.price === null) ?? legal[0];
      copy.apply(quiet.id);
      const scoring = copy.events().filter((e) => e.kind === S.EventKind.SCORING);
      if (scoring.length) {
        const seats = Array.from({ length: state.players }, () => ({ rubles: 0, vp: 0 }));
        for (const e of scoring) seats[e.seat] = { rubles: e.rubles, vp: e.vp };
        return { phase: S.phaseName(scoring[0].phase), seats };
      }
    }
    return null;
  } finally {
    copy.free();
  }
}

/** The log and the last discarded cards of a game, kept from the library's events (the state's event queue must
 * be enabled). Call record(state, lowerRow) after each apply, lowerRow being state.row(LOWER) before it. */
export class Chronicle {
  constructor(S, cards) {
    this.S = S;
    this.cards = cards;
    this.entries = [];   // {n, text, kind, seat, at: history length after the action that caused it}
    this.discarded = []; // names
  }
  /** Returns the events read. The cards discarded last are those the action put on the discard pile: a displaced
   * card (§6), an Observatory discard (§7.1), the lower row at a round's end (§4.5), a Sycophant its owner could not
   * pay (§12.7.9) or a card the Debtor's Prison put back (§12.7.5); a card the Prison picks leaves the pile, and the
   * list. */
  record(state, lowerBefore = []) {
    const at = state.history().length;
    const { EventKind } = this.S;
    const events = state.events();
    const put = []; // onto the pile by this action
    const onto = [EventKind.DISPLACE, EventKind.OBSERVATORY_DISCARD, EventKind.SYCOPHANT_DISCARD, EventKind.PRISON_PUT_BACK];
    for (const e of events) {
      this.entries.push({ n: this.entries.length + 1, text: e.text, kind: e.kind, seat: e.seat, at });
      if (onto.includes(e.kind)) put.push(this.cards[e.card].name);
      else if (e.kind === EventKind.ROUND_END && e.amount > 0) put.push(...lowerBefore.map((c) => this.cards[c].name));
      else if (e.kind === EventKind.PRISON) {
        const k = this.discarded.indexOf(this.cards[e.card].name);
        if (k >= 0) this.discarded.splice(k, 1);
      }
    }
    if (put.length) this.discarded = put;
    return events;
  }
  /** The entries after history length `at` (the texts of the actions from there on). */
  since(at) { return this.entries.filter((e) => e.at > at); }
}

/** The model of render.js for `seat` (see render.js): `extra` gives {labels, chronicle, lastMove (history length
 * after the seat's last move, 0 before it), mayAct (false while a move of the seat is not wanted, e.g. bots
 * pending), waiting, autoPass}. */
export function seatModel(S, state, seat, cards, extra) {
  const view = JSON.parse(state.viewToJson(seat));
  const terminal = state.isTerminal;
  const mine = !terminal && state.currentPlayer === seat && extra.mayAct !== false;
  const { chronicle, lastMove } = extra;
  return {
    seat,
    labels: extra.labels,
    view,
    cards,
    legal: mine ? state.legalActions().map(({ id, string, price, kind }) => ({ id, string, price, kind })) : null,
    waiting: extra.waiting ?? null,
    prices: terminal ? null : boardPrices(S, state, seat, cards),
    income: nextIncome(S, state),
    handLimits: Array.from({ length: state.players }, (_, s) => state.handLimit(s)),
    goldDisc: state.goldDiscHolder, // 5 players (§12.3, R18): the seat without a marker; -1 otherwise
    discarded: chronicle.discarded,
    // Since the seat's last move: its move and all after it; at the end the final scoring always.
    log: chronicle.entries.map((e) => ({ n: e.n, text: e.text, mine: e.seat === seat,
      recent: lastMove === 0 || e.at >= lastMove || e.kind === S.EventKind.FINAL_SCORING || e.kind === S.EventKind.GAME_OVER })),
    final: terminal ? { scores: state.scores(), winners: state.winners() } : null,
    autoPass: !!extra.autoPass,
  };
}
