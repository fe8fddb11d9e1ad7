// Drawing one seat's table (or a spectator's): the board, the seats, the person's actions, the log and the final
// table, from the library's table document (doc/format.md, "Table document"): stpete_state_table_to_json(), which
// the online server sends as is and the local page writes from its own state. This module computes no rule fact
// and uses no game library: every price, income, name, ability text, discard and "since your last move" is the
// document's; it only lays them out. Both pages (local and online) draw through it.
//
// render(doc, ui):
//   doc  the table document, parsed; `cards` may be null after the first one (the last card table is kept). Its
//        `seats` (added by the host, the page or the server) say who sits where: [{kind: "person" | "bot", label,
//        connected}] (label e.g. "bot, ISMCTS 1000" or "person"; connected: false for a person away).
//   ui   {mayAct: false while a move of the viewer is not wanted (the bots' answer pending, a move sent),
//        busy: a text while the page acts for the viewer ("Sent…", "Passing for you") or null,
//        autoPass: the viewer's auto-pass choice, shown when the viewer has a seat}
// Handlers (given to the constructor): onAction(id), onAutoPass(checked).

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
/** An amount with its sign: "+3 R", "-1 R" (a Sycophant's ruble, §12.7.9). */
export const signed = (n, unit) => `${n < 0 ? '-' : '+'}${Math.abs(n)} ${unit}`;
/** "+3 R +1 VP", "-1 R", or "nothing". */
export function incomeText(x) {
  const parts = [];
  if (x.rubles) parts.push(signed(x.rubles, 'R'));
  if (x.vp) parts.push(signed(x.vp, 'VP'));
  return parts.length ? parts.join(' ') : 'nothing';
}

export class Renderer {
  /** @param {Document} doc the page, with the elements #banner, #final, #status, #actions, #log, #board, #players
   * and #announce (a live region); @param handlers {onAction(id), onAutoPass(checked)} */
  constructor(page, handlers) {
    this.page = page;
    this.handlers = handlers;
    this.openSeats = new Map(); // seat -> open, as the person left it (else: own seat and, on a wide screen, all)
    this.olderOpen = false;
    this.focusActions = false; // the person plays from the action buttons (see renderActions)
    this.cards = null;
    this.byName = new Map();
  }
  $(id) { return this.page.getElementById(id); }

  /** Draw the table document `doc` with the page's state `ui` (see the top of this file). */
  render(doc, ui = {}) {
    if (doc.cards) {
      this.cards = doc.cards;
      this.byName = new Map(doc.cards.map((c) => [c.name, c]));
      this.colours = [...new Set(doc.cards.map((c) => c.colour))]; // the library's words, in its cards' order
    }
    if (!this.cards) throw new Error('render: the first table document must hold the card table (cards)');
    this.doc = doc;
    this.ui = ui;
    this.page.body.dataset.viewer = doc.seat === null ? 'spectator' : 'seat';
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
  /** The viewer's own legal actions, when it may act now; else null. */
  mine() {
    const { doc, ui } = this;
    return doc.seat !== null && doc.to_act === doc.seat && doc.actions.length > 0 && ui.mayAct !== false ? doc.actions : null;
  }
  /** "you", "bot, ISMCTS 1000", "person, away". */
  label(s) {
    if (s === this.doc.seat) return 'you';
    const who = this.doc.seats?.[s];
    if (!who) return 'seat';
    return `${who.label}${who.kind === 'person' && who.connected === false ? ', away' : ''}`;
  }
  seatName(s) { return s === this.doc.seat ? 'You' : `Seat ${s} (${this.label(s)})`; }
  /** Who the table waits for, in words: "Your turn", "Waiting for seat 2 (person)", "Waiting for the bots",
   * "You are watching: seat 1 (bot, greedy) to act", "Game over". */
  waiting() {
    const { doc, ui } = this;
    if (doc.result) return 'Game over';
    if (this.mine()) return 'Your turn';
    if (ui.busy) return ui.busy;
    const s = doc.to_act;
    if (s === null) return doc.seat === null ? 'You are watching' : 'Waiting';
    const kind = doc.seats?.[s]?.kind;
    if (doc.seat === null) return `You are watching: seat ${s} (${this.label(s)}) to act`;
    if (s === doc.seat) return 'Your turn';
    return kind === 'bot' ? `Waiting for the bots: seat ${s} (${this.label(s)}) is thinking`
      : `Waiting for seat ${s} (${this.label(s)})`;
  }

  /** A card face by name (null: a card whose identity the viewer does not know, shown by its back). */
  cardBox(name, { extra = null, count = 1, back = null } = {}) {
    if (name === null) return el('div', { class: 'card back', 'data-card': '?' }, el('div', { class: 'name' }, `${back} card`), el('div', {}, 'not seen'));
    const ci = this.byName.get(name);
    const income = ci.rubles || ci.vp ? `${ci.scoring} scoring: ${incomeText(ci)}.` : null;
    return el('div', { class: `card ${ci.colour}`, 'data-card': ci.name },
      el('div', { class: 'name' }, ci.name, count > 1 ? el('span', { class: 'count' }, ` ×${count}`) : null),
      el('div', { class: 'cost' }, `cost ${ci.cost} R`),
      el('div', { class: 'effect' }, [income, ci.text].filter(Boolean).join(' ')),
      extra);
  }
  /** What a card in a place (source: "upper", "lower", "observatory", "discard", "hand") would cost the viewer: the
   * document's offers, one element per price (its data-* name the offer, for tests and assistive reading). */
  offerNote(source, name) {
    const offers = this.doc.offers;
    if (!offers || name === null) return null;
    const ci = this.byName.get(name);
    const here = offers.filter((o) => o.source === source && o.card === ci.card);
    const price = (o, text) => el('span', { class: 'offer', 'data-source': source, 'data-card': o.card,
      'data-displaced': o.displaced ?? '', 'data-price': o.price }, text);
    const verb = source === 'hand' ? 'play' : 'pay';
    if (!ci.trading) return here.length ? el('div', { class: 'price' }, price(here[0], `you ${verb} ${here[0].price} R`)) : null;
    if (!here.length) return el('div', { class: 'price' }, 'nothing of yours to displace');
    const parts = here.flatMap((o, k) => [k ? ', ' : '', price(o, `${this.cards[o.displaced].name} ${o.price} R`)]);
    return el('div', { class: 'price' }, source === 'hand' ? 'play displacing ' : 'displacing ', ...parts);
  }

  renderBanner() {
    const { result } = this.doc;
    const box = this.$('banner');
    if (!result) { box.hidden = true; box.replaceChildren(); return; }
    const best = result.scores[result.winners[0]].total;
    const names = result.winners.map((w) => this.seatName(w));
    const text = result.winners.length === 1
      ? `${names[0]} ${result.winners[0] === this.doc.seat ? 'win' : 'wins'} with ${best} VP`
      : `Shared win: ${names.join(' and ')} with ${best} VP`;
    box.replaceChildren(el('h2', { id: 'winner', tabindex: '-1' }, `Game over: ${text}`));
    box.hidden = false;
  }
  renderStatus() {
    const { doc } = this;
    const view = doc.view;
    const starter = view.start_player_markers?.[doc.phases.indexOf(view.phase)];
    const who = this.waiting();
    this.$('status').replaceChildren(...[
      el('span', { id: 'status-line' }, `Round ${view.round}${view.final_round ? ' (last)' : ''} · ${view.phase} phase · ${who}`),
      starter === undefined || starter === null ? null
        : el('span', { class: 'starter' }, ` · started by ${starter === doc.seat ? 'you' : `seat ${starter}`}`)].filter(Boolean));
    this.$('status').classList.toggle('thinking', !doc.result && !this.mine());
  }
  renderActions() {
    const { doc, ui } = this;
    const box = this.$('actions');
    // a spectator has no move to make and nothing to pass (issue 45, item 5): no section at all
    if (doc.result || doc.seat === null) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const legal = this.mine();
    // Keyboard play: the focus stays with the actions from move to move once the person has put it there (a
    // button pressed by key or click); the buttons are new after each move, so it goes to the first one again.
    const active = this.page.activeElement;
    if (box.contains(active)) this.focusActions = true;
    else if (active && active !== this.page.body) this.focusActions = false;
    const buttons = (legal ?? []).map((a, k) => {
      const key = ACTION_KEYS[k] ?? '';
      return el('button', { type: 'button', class: a.kind === 'pass' || a.kind === 'buy' ? a.kind : 'other',
        'data-action': a.id, 'data-key': key, 'data-price': a.price ?? '', 'aria-keyshortcuts': key || null,
        onclick: () => this.handlers.onAction(a.id) },
      key ? el('kbd', { 'aria-hidden': 'true' }, key) : null, a.text + (a.price !== null ? ` — ${a.price} R` : ''));
    });
    const auto = el('label', { class: 'autopass' }, el('input', { type: 'checkbox', id: 'autopass', checked: !!ui.autoPass,
      onchange: (ev) => this.handlers.onAutoPass(ev.target.checked) }), ' Pass by itself when pass is my only action');
    box.replaceChildren(el('h2', {}, legal ? 'Your move' : this.waiting()),
      ...(buttons.length ? [el('div', { class: 'buttons' }, ...buttons)] : []), auto);
    if (legal && buttons.length && this.focusActions) buttons[0].focus({ preventScroll: true });
  }
  renderLog() {
    const { doc } = this;
    const log = doc.log;
    const endLine = (e) => e.kind === 'final-scoring' || e.kind === 'game-over';
    const recent = log.filter((e) => e.move > doc.recent_from || endLine(e));
    const older = log.filter((e) => !(e.move > doc.recent_from || endLine(e)));
    // The numbers are text (not list markers): "10." and "100." stay whole whatever the width.
    const item = (e) => el('li', { class: doc.seat !== null && e.seat === doc.seat ? 'mine' : null },
      el('span', { class: 'n' }, `${e.n}.`), ' ', e.text);
    const heading = doc.seat === null ? 'Since every seat\'s last move' : 'Since your last move';
    const parts = [el('h2', {}, heading),
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
    const { doc } = this;
    const view = doc.view;
    const rows = [['upper_row', 'upper', 'Upper row', 'row-upper'], ['lower_row', 'lower', 'Lower row (1 R cheaper)', 'row-lower']]
      .map(([key, source, title, id]) => el('div', {}, el('h3', {}, title),
        view[key].length ? el('div', { class: 'row', id }, ...view[key].map((name) => this.cardBox(name, { extra: this.offerNote(source, name) })))
          : el('p', { class: 'empty', id }, 'empty')));
    const prison = view.decision === 'prison';
    const drawn = view.observatory_card !== null
      ? el('div', {}, el('h3', {}, prison ? 'Picked from the discard pile with the Debtor\'s Prison' : 'Drawn with the Observatory'),
        el('div', { class: 'row', id: 'row-drawn' }, this.cardBox(view.observatory_card,
          { extra: this.offerNote(prison ? 'discard' : 'observatory', view.observatory_card) })))
      : null;
    const stacks = Object.entries(view.stack_sizes).map(([stack, n]) => `${stack} ${n}`).join(' · ');
    const last = doc.discarded_last.map((k) => this.cards[k].name);
    this.$('board').replaceChildren(el('h2', {}, 'Board'), ...rows, ...(drawn ? [drawn] : []),
      el('p', { class: 'stacks' }, `Stacks: ${stacks}`),
      el('p', { id: 'discarded' }, `Last discarded: ${last.length ? last.join(', ') : 'nothing yet'}`
        + ` (discard pile ${view.discard.length})`));
  }
  renderPlayers() {
    const { doc } = this;
    const view = doc.view;
    const wide = this.page.defaultView.matchMedia('(min-width: 701px)').matches;
    const markers = view.start_player_markers ?? [];
    const phases = doc.phases;
    const next = doc.incomes?.next ?? null;
    const first = doc.seat ?? 0; // the viewer first
    const seats = [];
    for (let k = 0; k < view.players.length; k++) {
      const s = (first + k) % view.players.length;
      const p = view.players[s];
      const me = s === doc.seat;
      const started = markers.map((h, ph) => (h === s ? phases[ph] : null)).filter(Boolean);
      const facts = [
        el('strong', { class: 'who' }, me ? `Seat ${s}: you` : `Seat ${s}: ${this.label(s)}`),
        el('span', { class: 'rubles' }, `${p.rubles === null ? '?' : p.rubles} R`),
        el('span', { class: 'vp' }, `${p.vp} VP`),
        el('span', { class: 'handsize' }, `hand ${p.hand_size}/${doc.hand_limits[s]}`),
        started.length ? el('span', { class: 'marker', title: 'start-player marker (§3.3)' }, `▶ ${started.join(', ')}`) : null,
        doc.gold_disc === s ? el('span', { class: 'marker gold', title: 'gold disc (§12.3)' }, '● gold disc') : null,
        p.prison_used ? el('span', { class: 'prison', title: 'Debtor\'s Prison used this round (§12.7.5)' }, 'Prison used') : null,
        next ? el('span', { class: 'income', 'data-rubles': doc.incomes[next][s].rubles, 'data-vp': doc.incomes[next][s].vp },
          `${next} scoring ${incomeText(doc.incomes[next][s])}`) : null,
      ];
      const groups = this.colours.map((colour) => {
        const counts = new Map();
        for (const name of p.display) if (this.byName.get(name).colour === colour) counts.set(name, (counts.get(name) ?? 0) + 1);
        return counts.size
          ? el('div', { class: 'group', 'data-colour': colour }, ...[...counts].map(([name, n]) => this.cardBox(name, { count: n })))
          : null;
      });
      const hand = p.hand_size
        ? el('div', { class: 'group hand', 'data-hand': s }, el('span', { class: 'label' }, me ? 'your hand' : 'hand'),
          ...p.hand.map((name, j) => this.cardBox(name, { back: p.hand_backs[j], extra: me ? this.offerNote('hand', name) : null })))
        : null;
      const open = this.openSeats.get(s) ?? (me || wide);
      const details = el('details', { class: `seat${doc.to_act === s && !doc.result ? ' current' : ''}`, 'data-seat': s,
        ontoggle: (ev) => { if (ev.target.open !== open) this.openSeats.set(s, ev.target.open); } }, // the person's toggles only
      el('summary', { class: 'facts' }, ...facts.filter(Boolean).flatMap((f, j) => (j ? [' · ', f] : [f]))),
      p.observatories_used ? el('div', { class: 'obs' }, `Observatories used this round: ${p.observatories_used}`) : null,
      hand, ...groups, p.display.length || p.hand_size ? null : el('p', { class: 'empty' }, 'No cards yet.'));
      details.open = open;
      seats.push(details);
    }
    this.$('players').replaceChildren(el('h2', {}, 'Players'), ...seats);
  }
  renderFinal() {
    const { result, seat } = this.doc;
    const box = this.$('final');
    if (!result) { box.hidden = true; box.replaceChildren(); return; }
    const head = ['Seat', 'VP', 'Aristo\u00adcrats', 'Rubles', 'Hand', 'Total', 'Tie']
      .map((h) => el('th', { scope: 'col' }, h));
    const rows = result.scores.map((sc, s) => el('tr', { class: result.winners.includes(s) ? 'winner' : null, 'data-seat': s },
      el('th', { scope: 'row' }, s === seat ? `${s} (you)` : String(s)),
      el('td', {}, String(sc.vp_before)),
      el('td', {}, `+${sc.aristocrat_bonus}`, el('small', {}, ` ${plural(sc.aristocrat_kinds, 'kind')}`)),
      el('td', {}, `+${sc.rubles_bonus}`, el('small', {}, ` ${sc.rubles} R`)),
      el('td', {}, String(sc.hand_penalty), el('small', {}, ` ${plural(sc.hand_cards, 'card')}`)),
      el('td', { class: 'total' }, String(sc.total)),
      el('td', {}, String(sc.tie_break))));
    box.replaceChildren(el('h2', {}, 'Final scoring (§8)'),
      el('table', { id: 'final-table' }, el('caption', {}, 'VP before the final scoring, the aristocrat bonus (different '
        + `kinds), +1 VP per 10 R, −5 VP per hand card; tie-break (R14): ${result.tie_break.replaceAll('-', ' ')}`),
      el('thead', {}, el('tr', {}, ...head)), el('tbody', {}, ...rows)));
    box.hidden = false;
  }
}
