// The library's rule options for the local page, by their JSON words (doc/format.md, "The options object"): the
// table the setup form is built from, the library's check of a combination, a game from the words and the words
// of a game. The one place where the page meets the package's options API.
//
// Until the library's options table (issue 42) reaches the package, the table below is this adapter's, the check
// and the games the package's (checkOptions, new Game); it then comes from the library and this file shrinks to
// the calls.
import * as S from './libstpete/index.js';

const TABLE = Object.freeze([
  { name: 'players', type: 'int', default: 4, min: 2, max: 5, description: 'Players', rule: '§3, §12.0' },
  { name: 'edition', type: 'int', default: 1, min: 1, max: 2, description: 'Edition: 1 (2004) or 2 (2014)', rule: '§11' },
  { name: 'new_society', type: 'bool', default: false, description: 'The New Society expansion', rule: '§12' },
  { name: 'pub_cap', type: 'enum', default: 'per-pub', values: ['per-pub', 'per-player'], description: 'Pub cap', rule: '§7.2, R10' },
  { name: 'tie_break', type: 'enum', default: 'rubles-mod-10', values: ['rubles-mod-10', 'rubles-total'], description: 'Tie-break', rule: '§8, R14' },
  { name: 'public_rubles', type: 'bool', default: false, description: 'Public rubles', rule: '§9' },
  { name: 'public_hands', type: 'bool', default: false, description: 'Public hands', rule: '§9' },
  { name: 'markers_one_seat', type: 'bool', default: false, description: '5 players: the markers move one seat a round', rule: '§12.4.1, R19' },
  { name: 'used_prison_scores', type: 'bool', default: false, description: 'A used Debtor\'s Prison still scores', rule: '§12.7.5, R22' },
  { name: 'textile_without_new_society', type: 'bool', default: false, description: 'The Textile Factory does not count the New Society', rule: '§12.7.8, R29' },
  { name: 'chance_mode', type: 'enum', default: 'sampled', values: ['sampled', 'explicit'], description: 'Chance', rule: '§3.1' },
  { name: 'start_markers', type: 'seats', default: null, description: 'Start-player markers', rule: '§3.3' },
]);
const CAMEL = { players: 'players', edition: 'edition', new_society: 'newSociety', pub_cap: 'pubCap', tie_break: 'tieBreak',
  public_rubles: 'publicRubles', public_hands: 'publicHands', markers_one_seat: 'markersOneSeat', start_markers: 'startMarkers',
  used_prison_scores: 'usedPrisonScores', textile_without_new_society: 'textileWithoutNewSociety', chance_mode: 'chanceMode' };
const FROM_WORD = { pub_cap: S.pubCapFromName, tie_break: S.tieBreakFromName, chance_mode: S.chanceModeFromName };
const TO_WORD = { pub_cap: S.pubCapName, tie_break: S.tieBreakName, chance_mode: S.chanceModeName };

/** The library's rule options: [{name, type, default, min, max, values, description, rule}]. */
export function optionsTable() { return TABLE; }

function packageOptions(words) {
  const out = {};
  for (const [word, value] of Object.entries(words)) {
    if (!(word in CAMEL)) throw new S.InvalidArgumentError(`unknown rule option ${word}`, S.Status.INVALID_ARGUMENT, 'options');
    out[CAMEL[word]] = FROM_WORD[word] && typeof value === 'string' ? FROM_WORD[word](value) : value;
  }
  return out;
}
/** The library's reason for refusing these options (JSON words), or null when it accepts them. */
export function checkOptions(words) {
  try {
    return S.checkOptions(packageOptions(words));
  } catch (e) {
    return e.message;
  }
}
/** A Game of these options (JSON words) and seed; throws the library's refusal. */
export function gameOf(words, seed) { return new S.Game({ ...packageOptions(words), seed }); }
/** The options of a game as JSON words: every rule option of the table. */
export function optionsOf(game) {
  const o = game.options;
  return Object.fromEntries(TABLE.map(({ name }) => [name, TO_WORD[name] ? TO_WORD[name](o[CAMEL[name]]) : o[CAMEL[name]]]));
}
