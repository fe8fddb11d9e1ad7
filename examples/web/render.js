// Drawing one seat's view of a game: the board, the seats, the person's actions, the log and the final table.
// This module uses no game library and no global state beyond the page's elements it is given: it draws a
// *model*, a plain JSON-able object made from the library's per-seat view (model.js makes one from a State), so a
// page that gets its model from elsewhere (a game server's client) draws the same page.
//
// The model (every field required unless marked optional):
//   seat        the viewing seat (0..players-1)
//   labels      one short label per seat, e.g. ["you", "bot (ismcts:iterations=1000)"]
//   view        the library's per-seat view, parsed (doc/format.md, "Views (§9)"): stpete_state_view_to_json(seat).
//               Unknown rubles and hand cards are null there; this module shows them as such ("?", a card back).
//   cards       CardInfo of the game by card type (index 0..48, or 0..61 with the New Society; Game.cardInfo)
//   legal       the viewer's legal actions [{id, string, price (R or null), kind}] when the viewer is to act, else null
//   waiting     optional text while another seat acts (e.g. "Seat 2 (bot) is thinking")
//   prices      {upper: [text], lower: [text], observatory: text|null}: what each board card costs the viewer (§5,
//               §6); optional
//   income      {phase, seats: [{rubles, vp}]} the income of each seat at the next scoring (§4.4, §7.5), or null
//   discarded   names of the cards the last action that discarded put on the pile (a displaced card, an
//               Observatory discard, the lower row at a round's end, unpaid Sycophants, a card the Debtor's Prison put
//               back; §4.5, §6, §7.1, §12.7.5, §12.7.9), without those the Prison took back since; [] before any
//   log         [{n, text, recent, mine}]: the library's event texts, numbered from 1; recent = since the viewer's
//               last move; mine = an event of the viewer's seat (shown in bold)
//   handLimits  optional: each seat's hand limit (§7.3), shown beside the hand size
//   goldDisc    optional: the seat holding the gold disc (5 players, §12.3), or -1
//   final       at the end: {scores: [Score of §8 per seat], winners: [seats]}; else null
//   autoPass    optional boolean: the viewer passes by itself when pass is the only action
//
// Handlers (given to the constructor): onAction(id), onAutoPass(checked).

const COLOURS = ['green', 'blue', 'orange'];
export const PHASES = ['worker', 'building', 'aristocrat', 'trading'];
// Texts of the special abilities (stpete.h's special numbers, §7 and §11); the figures come from the card info.
const SPECIAL = {
  1: 'Building phase: draw a card from a stack instead of a turn (§7.1)',
  2: 'After building scoring: buy VP, 2 R each, up to 5 per Pub (§7.2)',
  3: 'Hand limit 4 (§7.3)',
  4: 'Worth 6 R when displaced (§7.4)',
  5: '+1 R per aristocrat at building scoring (§7.5)',
  6: '+1 R per worker at aristocrat scoring (§7.5)',
  7: 'Blue cards cost you 1 R less (§5.1)',
  8: 'Orange cards cost you 1 R less (§5.1)',
  9: 'Any green trading card may displace it (§6.2)',
  10: '+1 VP per aristocrat at building scoring (§11)',
  // the New Society (§12.7)
  11: '+1 R per aristocrat at building scoring (§12.7.4)',
  12: 'Building phase: buy, take or put back a card of the discard pile, once a round (§12.7.5)',
  13: 'Building scoring: you may pay 3 R for 2 VP (§12.7.6)',
  14: 'Aristocrat scoring: pay 1 R or discard it (§12.7.9)',
  15: 'Green cards cost you 1 R less (§12.5)',
  16: 'May displace any worker (§12.6)',
  17: 'Building scoring: split 4 into R and VP as you like (§12.7.7)',
  18: '+2 VP per weaving worker at building scoring (§12.7.8)',
  19: '+1 R per building at aristocrat scoring (§12.7.4)',
};
/** Keys of the action buttons, in the order of the legal actions (U is undo). */
export const ACTION_KEYS = '123456789abcdefghijklmnopqrstvwxyz';

/** An element with attributes (on* are listeners) and children (strings or nodes; null skipped). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const ch of children) if (ch !== null && ch !== undefined && ch !== false) e.append(ch);
  return e;
}
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** "+3 R +1 VP", or "nothing". */
export function incomeText(x) {
  const parts = [];
  if (x.rubles) parts.push(`+${x.rubles} R`);
  if (x.vp) parts.push(`+${x.vp} VP`);
  return parts.length ? parts.join(' ') : 'nothing';
}

export class Renderer {
  /** @param {Document} doc the page, with the elements #banner, #final, #status, #actions, #log, #board, #players
   * and #announce (a live region); @param handlers {onAction(id), onAutoPass(checked)} */
  constructor(doc, handlers) {
    this.doc = doc;
    this.handlers = handlers;
    this.openSeats = new Map(); // seat -> open, as the person left it (else: own seat and, on a wide screen, all)
    this.olderOpen = false;
    this.focusActions = false; // the person plays from the action buttons (see renderActions)
    this.byName = null;
    this.cards = null;
  }
  $(id) { return this.doc.getElementById(id); }

  /** Draw `model` (see the top of this file). */
  render(model) {
    if (model.cards !== this.cards) {
      this.cards = model.cards;
      this.byName = new Map(model.cards.map((ci) => [ci.name, ci]));
    }
    this.model = model;
    this.renderBanner();
    this.renderStatus();
    this.renderActions();
    this.renderLog();
    this.renderBoard();
    this.renderPlayers();
    this.renderFinal();
  }
  /** Say `lines` through the live region (screen readers read it; e.g. the bots' moves). */
  announce(lines) {
    if (lines.length) this.$('announce').textContent = lines.join('. ');
  }
  seatName(s) {
    return `Seat ${s} (${this.model.labels[s]})`;
  }

  info(name) { return this.byName.get(name); }
  effectText(ci) {
    const parts = [];
    if (ci.trading) {
      const target = ci.colour === 0 ? `a ${ci.ware >= 0 ? this.cards[ci.ware].name : 'worker'} (or Czar and Carpenter)`
        : ci.colour === 1 ? 'a building' : 'an aristocrat';
      parts.push(`Displaces ${target}.`);
    }
    if (ci.rubles || ci.vp) parts.push(`${PHASES[ci.colour]} scoring: ${incomeText(ci)}.`);
    if (ci.special && SPECIAL[ci.special]) parts.push(SPECIAL[ci.special]);
    return parts.join(' ');
  }
  /** A card face (name null: a card whose identity the viewer does not know, shown by its back). */
  cardBox(name, { extra = null, count = 1, back = null } = {}) {
    if (name === null) return el('div', { class: 'card back', 'data-card': '?' }, el('div', { class: 'name' }, `${back} card`), el('div', {}, 'not seen'));
    const ci = this.info(name);
    return el('div', { class: `card ${COLOURS[ci.colour]}`, 'data-card': ci.name },
      el('div', { class: 'name' }, ci.name, count > 1 ? el('span', { class: 'count' }, ` ×${count}`) : null),
      el('div', { class: 'cost' }, `cost ${ci.cost} R`),
      el('div', { class: 'effect' }, this.effectText(ci)),
      extra);
  }

  renderBanner() {
    const { final, seat } = this.model;
    const box = this.$('banner');
    if (!final) { box.hidden = true; box.replaceChildren(); return; }
    const best = final.scores[final.winners[0]].total;
    const names = final.winners.map((w) => (w === seat ? 'You' : `Seat ${w} (${this.model.labels[w]})`));
    const text = final.winners.length === 1
      ? `${names[0]} ${final.winners[0] === seat ? 'win' : 'wins'} with ${best} VP`
      : `Shared win: ${names.join(' and ')} with ${best} VP`;
    box.replaceChildren(el('h2', { id: 'winner', tabindex: '-1' }, `Game over: ${text}`));
    box.hidden = false;
  }
  renderStatus() {
    const { view, seat, legal, waiting, final } = this.model;
    const who = final ? 'Game over' : legal ? 'Your turn' : (waiting ?? `Seat ${view.current_player} to act`);
    const phase = PHASES.indexOf(view.phase);
    const starter = view.start_player_markers[phase];
    this.$('status').replaceChildren(
      el('span', { id: 'status-line' }, `Round ${view.round}${view.final_round ? ' (last)' : ''} · ${view.phase} phase · ${who}`),
      el('span', { class: 'starter' }, ` · started by ${starter === seat ? 'you' : `seat ${starter}`}`));
    this.$('status').classList.toggle('thinking', !final && !legal);
  }
  renderActions() {
    const { legal, autoPass } = this.model;
    const box = this.$('actions');
    if (this.model.final) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    // Keyboard play: the focus stays with the actions from move to move once the person has put it there (a
    // button pressed by key or click); the buttons are new after each move, so it goes to the first one again.
    const active = this.doc.activeElement;
    if (box.contains(active)) this.focusActions = true;
    else if (active && active !== this.doc.body) this.focusActions = false;
    const buttons = (legal ?? []).map((a, k) => {
      const kind = a.kind === 0 ? 'pass' : a.kind === 1 ? 'buy' : 'other';
      const key = ACTION_KEYS[k] ?? '';
      return el('button', { type: 'button', class: kind, 'data-action': a.id, 'data-key': key,
        'aria-keyshortcuts': key || null, onclick: () => this.handlers.onAction(a.id) },
      key ? el('kbd', { 'aria-hidden': 'true' }, key) : null, a.string + (a.price !== null ? ` — ${a.price} R` : ''));
    });
    const auto = el('label', { class: 'autopass' }, el('input', { type: 'checkbox', id: 'autopass', checked: !!autoPass,
      onchange: (ev) => this.handlers.onAutoPass(ev.target.checked) }), ' Pass by itself when pass is my only action');
    box.replaceChildren(el('h2', {}, legal ? 'Your move' : 'Waiting for the bots'),
      el('div', { class: 'buttons' }, ...buttons), auto);
    if (legal && buttons.length && this.focusActions) buttons[0].focus({ preventScroll: true });
  }
  renderLog() {
    const { log } = this.model;
    const recent = log.filter((e) => e.recent);
    const older = log.filter((e) => !e.recent);
    // The numbers are text (not list markers): "10." and "100." stay whole whatever the width.
    const item = (e) => el('li', { class: e.mine ? 'mine' : null }, el('span', { class: 'n' }, `${e.n}.`), ' ', e.text);
    const parts = [el('h2', {}, 'Since your last move'),
      recent.length ? el('ol', { id: 'log-recent' }, ...recent.map(item)) : el('p', { class: 'empty' }, 'Nothing yet.')];
    if (older.length) {
      const details = el('details', { id: 'log-older', ontoggle: (ev) => { this.olderOpen = ev.target.open; } },
        el('summary', {}, `Earlier (${older.length})`), el('ol', { class: 'older' }, ...older.map(item)));
      details.open = this.olderOpen;
      parts.push(details);
    }
    this.$('log').replaceChildren(...parts);
    const ol = this.$('log-recent');
    if (ol) ol.scrollTop = ol.scrollHeight;
  }
  renderBoard() {
    const { view, prices, discarded } = this.model;
    const note = (text) => (text ? el('div', { class: 'price' }, text) : null);
    const rows = [['upper_row', 'Upper row', 'row-upper', prices?.upper], ['lower_row', 'Lower row (1 R cheaper)', 'row-lower', prices?.lower]]
      .map(([key, title, id, notes]) => el('div', {}, el('h3', {}, title),
        view[key].length ? el('div', { class: 'row', id }, ...view[key].map((name, k) => this.cardBox(name, { extra: note(notes?.[k]) })))
          : el('p', { class: 'empty', id }, 'empty')));
    const drawnWith = view.decision === 'prison' ? 'Picked from the discard pile with the Debtor\'s Prison' : 'Drawn with the Observatory';
    const drawn = view.observatory_card !== null
      ? el('div', {}, el('h3', {}, drawnWith), el('div', { class: 'row' }, this.cardBox(view.observatory_card, { extra: note(prices?.observatory) })))
      : null;
    const stacks = PHASES.map((p) => `${p} ${view.stack_sizes[p]}`).join(' · ');
    this.$('board').replaceChildren(...[el('h2', {}, 'Board'), ...rows, drawn].filter(Boolean),
      el('p', { class: 'stacks' }, `Stacks: ${stacks}`),
      el('p', { id: 'discarded' }, `Last discarded: ${discarded.length ? discarded.join(', ') : 'nothing yet'}`
        + ` (discard pile ${view.discard.length})`));
  }
  renderPlayers() {
    const { view, seat, income, labels } = this.model;
    const wide = this.doc.defaultView.matchMedia('(min-width: 701px)').matches;
    const markers = view.start_player_markers;
    const seats = [];
    for (let k = 0; k < view.players.length; k++) {
      const s = (seat + k) % view.players.length; // the viewer first
      const p = view.players[s];
      const me = s === seat;
      const started = markers.map((h, ph) => (h === s ? PHASES[ph] : null)).filter(Boolean);
      const limit = this.model.handLimits ? `/${this.model.handLimits[s]}` : '';
      const facts = [
        el('strong', { class: 'who' }, me ? `Seat ${s}: you` : `Seat ${s}: ${labels[s]}`),
        el('span', { class: 'rubles' }, `${p.rubles === null ? '?' : p.rubles} R`),
        el('span', { class: 'vp' }, `${p.vp} VP`),
        el('span', { class: 'handsize' }, `hand ${p.hand_size}${limit}`),
        started.length ? el('span', { class: 'marker', title: 'start-player marker (§3.3)' }, `▶ ${started.join(', ')}`) : null,
        this.model.goldDisc === s ? el('span', { class: 'marker gold', title: 'gold disc (§12.3)' }, '● gold disc') : null,
        p.prison_used ? el('span', { class: 'prison', title: 'Debtor\'s Prison used this round (§12.7.5)' }, 'Prison used') : null,
        income ? el('span', { class: 'income' }, `${income.phase} scoring ${incomeText(income.seats[s])}`) : null,
      ];
      const groups = [0, 1, 2].map((colour) => {
        const counts = new Map();
        for (const name of p.display) if (this.info(name).colour === colour) counts.set(name, (counts.get(name) ?? 0) + 1);
        return counts.size
          ? el('div', { class: 'group', 'data-colour': COLOURS[colour] }, ...[...counts].map(([name, n]) => this.cardBox(name, { count: n })))
          : null;
      });
      const observatories = p.display.filter((name) => this.info(name).special === 1).length;
      const hand = p.hand_size
        ? el('div', { class: 'group hand', 'data-hand': s }, el('span', { class: 'label' }, me ? 'your hand' : 'hand'),
          ...p.hand.map((name, j) => this.cardBox(name, { back: p.hand_backs[j] })))
        : null;
      const open = this.openSeats.get(s) ?? (me || wide);
      const details = el('details', { class: `seat${view.current_player === s && !this.model.final ? ' current' : ''}`, 'data-seat': s,
        ontoggle: (ev) => { if (ev.target.open !== open) this.openSeats.set(s, ev.target.open); } }, // the person's toggles only
      el('summary', { class: 'facts' }, ...facts.filter(Boolean).flatMap((f, j) => (j ? [' · ', f] : [f]))),
      observatories ? el('div', { class: 'obs' }, `Observatories used this round: ${p.observatories_used} of ${observatories}`) : null,
      hand, ...groups, p.display.length || p.hand_size ? null : el('p', { class: 'empty' }, 'No cards yet.'));
      details.open = open;
      seats.push(details);
    }
    this.$('players').replaceChildren(el('h2', {}, 'Players'), ...seats);
  }
  renderFinal() {
    const { final, seat } = this.model;
    const box = this.$('final');
    if (!final) { box.hidden = true; box.replaceChildren(); return; }
    const head = ['Seat', 'VP', 'Aristo\u00adcrats', 'Rubles', 'Hand', 'Total', 'Tie']
      .map((h) => el('th', { scope: 'col' }, h));
    const rows = final.scores.map((sc, s) => el('tr', { class: final.winners.includes(s) ? 'winner' : null, 'data-seat': s },
      el('th', { scope: 'row' }, s === seat ? `${s} (you)` : String(s)),
      el('td', {}, String(sc.vpBefore)),
      el('td', {}, `+${sc.aristocratBonus}`, el('small', {}, ` ${plural(sc.aristocratKinds, 'kind')}`)),
      el('td', {}, `+${sc.rublesBonus}`, el('small', {}, ` ${sc.rubles} R`)),
      el('td', {}, String(sc.handPenalty), el('small', {}, ` ${plural(sc.handCards, 'card')}`)),
      el('td', { class: 'total' }, String(sc.total)),
      el('td', {}, String(sc.tieBreak))));
    box.replaceChildren(el('h2', {}, 'Final scoring (§8)'),
      el('table', { id: 'final-table' }, el('caption', {}, 'VP before the final scoring, the aristocrat bonus (different '
        + 'kinds), +1 VP per 10 R, −5 VP per hand card; tie-break: '
        + (this.model.view.options.tie_break === 'rubles-total' ? 'the rubles held' : 'the rubles left after the tens (R mod 10)')),
      el('thead', {}, el('tr', {}, ...head)), el('tbody', {}, ...rows)));
    box.hidden = false;
  }
}
