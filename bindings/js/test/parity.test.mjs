// JavaScript at parity with C (issue 41, point 4): every public C function of the headers has its counterpart in
// the package (src/capi.js SIGNATURES, called from src/index.js) or a documented reason (src/capi.js NOT_BOUND,
// doc/javascript.md); every enum constant and numeric #define of the headers has its JavaScript twin with the
// header's value (as the Python binding's test_ffi.py checks its own); and the TypeScript declarations
// (src/index.d.ts) declare exactly what the module exports, each enum's and constant's literal type the header's
// value, and each class's members.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, packageDir, sourceDir } from './helpers.mjs';

const S = await load();
const capi = await import(pathToFileURL(join(packageDir, 'src', 'capi.js')).href);
const read = (...path) => readFileSync(join(sourceDir, ...path), 'utf8');
const HEADERS = [read('include', 'stpete', 'stpete.h'), read('include', 'stpete', 'bots.h')];

/** The header without comments. */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');

/** The public functions of a header: every STPETE_API declaration's name. */
function apiFunctions(text) {
  return [...code(text).matchAll(/STPETE_API\s+[^;(]*?\b(stpete_\w+)\s*\(/g)].map((m) => m[1]);
}

/** The enums ({name: [constant...]}) and the value of every enum constant and numeric #define ({NAME: value}) of
 * a header, counted as a C compiler counts them (the Python binding's header_values, test_ffi.py). */
function headerValues(text, values = {}) {
  const src = code(text);
  const enums = {};
  const evaluate = (expr) => {
    let e = expr.trim();
    while (e.startsWith('(') && e.endsWith(')')) e = e.slice(1, -1).trim();
    const uint = /^UINT64_C\((\w+)\)$/.exec(e);
    if (uint) e = uint[1];
    if (e.includes('+')) return e.split('+').reduce((sum, term) => sum + evaluate(term), 0);
    if (/^-?(0x[0-9a-fA-F]+|\d+)u?$/.test(e)) return Number(e.replace(/u$/, ''));
    if (!(e in values)) throw new Error(`header: cannot evaluate ${expr}`);
    return values[e];
  };
  for (const [, name, body] of src.matchAll(/enum (stpete_\w+)\s*\{([\s\S]*?)\}/g)) {
    let value = -1;
    enums[name] = [];
    for (const item of body.split(',').map((i) => i.trim()).filter(Boolean)) {
      const [ident, expr] = item.split('=').map((p) => p.trim());
      value = expr ? evaluate(expr) : value + 1;
      values[ident] = value;
      enums[name].push(ident);
    }
  }
  for (const [, ident, expr] of src.matchAll(/^#define (STPETE_\w+)[ \t]+(\(?-?\w+u?\)?|\(?[\w +]+\)?|UINT64_C\(\w+\))[ \t]*$/gm)) {
    if (['STPETE_API'].includes(ident) || /_H$/.test(ident)) continue;
    values[ident] = evaluate(expr);
  }
  return { enums, values };
}
const values = {};
const enums = {};
for (const h of HEADERS) Object.assign(enums, headerValues(h, values).enums);

test('every public C function is bound, or not bound for a documented reason', () => {
  const functions = HEADERS.flatMap(apiFunctions);
  // the declarations found are the exported symbols (lib/libstpete.map)
  const map = [...read('lib', 'libstpete.map').replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/^\s*(stpete_\w+);/gm)];
  assert.deepEqual([...functions].sort(), map.map((m) => m[1]).sort());
  assert.ok(functions.length >= 112, `${functions.length} functions found in the headers`);
  const bound = new Set(Object.values(capi.SIGNATURES).map(([symbol]) => symbol));
  const reasons = capi.NOT_BOUND;
  const missing = functions.filter((f) => !bound.has(f) && !(f in reasons));
  assert.deepEqual(missing, [], 'public C functions with neither a JavaScript counterpart nor a reason');
  for (const f of Object.keys(reasons)) {
    assert.ok(functions.includes(f), `NOT_BOUND names ${f}, which is no public function`);
    assert.ok(!bound.has(f), `${f} is both bound and not bound`);
    assert.ok(reasons[f].length > 20, `${f}: a reason`);
  }
  for (const symbol of bound) {
    if (symbol !== 'malloc' && symbol !== 'free') assert.ok(functions.includes(symbol), `${symbol} is no public function`);
  }
  // doc/javascript.md gives each reason to the reader
  const doc = read('doc', 'javascript.md');
  for (const f of Object.keys(reasons)) assert.ok(doc.includes(f), `doc/javascript.md does not say why ${f} is not bound`);
});

test('every bound function is called by the package', () => {
  const index = read('bindings', 'js', 'src', 'index.js');
  for (const name of Object.keys(capi.SIGNATURES)) {
    assert.match(index, new RegExp(`\\bc\\.${name}\\b`), `src/index.js never calls ${name}`);
  }
});

test('every enum and numeric constant of the headers has its JavaScript twin, by name and value', () => {
  // each enum of the headers is one ENUMS entry (the status codes are #defines: Status)
  const covered = new Set();
  for (const [name, [prefix, members]] of Object.entries(capi.ENUMS)) {
    assert.deepEqual(S[name], members, `the module's ${name} is ENUMS.${name}`);
    assert.ok(Object.isFrozen(S[name]), `${name} is frozen`);
    for (const [member, value] of Object.entries(members)) {
      const constant = capi.enumConstant(prefix, member);
      assert.equal(values[constant], value, `${name}.${member}: ${constant} is ${values[constant]} in the header`);
      covered.add(constant);
    }
  }
  for (const [name, constants] of Object.entries(enums)) {
    const extra = constants.filter((c) => !covered.has(c) && !(c.slice('STPETE_'.length) in capi.CONSTANTS));
    assert.deepEqual(extra, [], `enum ${name}: constants without a JavaScript twin`);
  }
  // every numeric #define: a status (Status) or a constant the module exports
  const statuses = new Set(Object.keys(capi.ENUMS.Status[1]).map((m) => capi.enumConstant('STPETE_E_', m)));
  for (const [ident, value] of Object.entries(values)) {
    if (statuses.has(ident) || covered.has(ident)) continue;
    const name = ident.slice('STPETE_'.length);
    if (/^VERSION_/.test(name)) continue; // version.h, generated: version() and versionNumber() give them
    assert.ok(name in capi.CONSTANTS, `${ident} (${value}) has no JavaScript twin in src/capi.js CONSTANTS`);
    assert.equal(capi.CONSTANTS[name][0], ident);
    assert.equal(capi.CONSTANTS[name][1], value, `CONSTANTS.${name}`);
    assert.equal(S[name], value, `the module's ${name}`);
  }
  for (const [name, [ident, value]] of Object.entries(capi.CONSTANTS)) {
    assert.equal(values[ident], value, `CONSTANTS.${name}: ${ident} is ${values[ident]} in the header`);
  }
  // the library's own name functions agree with the enums (as test_ffi.py's test_name_functions)
  const words = (fn) => { const out = {}; for (let v = 0; fn(v) !== null; v++) out[fn(v)] = v; return out; };
  const kebab = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase().replaceAll('_', '-'), v]));
  for (const [fn, e] of [[S.phaseName, S.Phase], [S.stackName, S.Stack], [S.decisionName, S.Decision],
    [S.sourceName, S.Source], [S.eventKindName, S.EventKind], [S.colourName, S.Colour],
    [S.pubCapName, S.PubCap], [S.tieBreakName, S.TieBreak], [S.chanceModeName, S.ChanceMode]]) {
    assert.deepEqual(words(fn), kebab(e));
    assert.equal(fn(-1), null);
  }
});

/** The declarations of index.d.ts: {values: names exported as values, literal: {name: {member: value} or value},
 * classes: {name: Set of members}}. */
function declarations(text) {
  const src = code(text);
  const valuesDeclared = new Set();
  const literal = {};
  for (const [, kind, name] of src.matchAll(/export declare (const|function|class) (\w+)/g)) valuesDeclared.add(name);
  for (const [, name, body] of src.matchAll(/export declare const (\w+): Readonly<\{([\s\S]*?)\}>;/g)) {
    literal[name] = Object.fromEntries([...body.matchAll(/(\w+): (-?\d+)/g)].map(([, k, v]) => [k, Number(v)]));
  }
  for (const [, name, v] of src.matchAll(/export declare const (\w+): (-?\d+);/g)) literal[name] = Number(v);
  const classes = {};
  for (const [, name, body] of src.matchAll(/export declare class (\w+)(?: extends \w+)? \{([\s\S]*?)\n\}/g)) {
    classes[name] = new Set([...body.matchAll(/^ {2}(?:static |readonly |private )*(\w+)[?(:<]/gm)].map((m) => m[1]));
  }
  return { values: valuesDeclared, literal, classes };
}

test('the TypeScript declarations declare what the module exports, with the header\'s values', () => {
  const d = declarations(read('bindings', 'js', 'src', 'index.d.ts'));
  const exported = new Set(Object.keys(S));
  assert.deepEqual([...exported].filter((n) => !d.values.has(n)).sort(), [], 'exported but not declared');
  assert.deepEqual([...d.values].filter((n) => !exported.has(n)).sort(), [], 'declared but not exported');
  for (const [name, [, members]] of Object.entries(capi.ENUMS)) assert.deepEqual(d.literal[name], members, `${name}'s type`);
  for (const [name, [, value]] of Object.entries(capi.CONSTANTS)) {
    if (name in d.literal) assert.equal(d.literal[name], value, `${name}'s type`);
    else assert.fail(`${name} is declared without its literal value`);
  }
  for (const cls of ['Game', 'State', 'Bot']) {
    const proto = Object.getOwnPropertyNames(S[cls].prototype).filter((n) => n !== 'constructor');
    const statics = Object.getOwnPropertyNames(S[cls]).filter((n) => !['length', 'name', 'prototype'].includes(n));
    const members = new Set([...proto, ...statics]);
    const declared = d.classes[cls];
    assert.ok(declared, `class ${cls} declared`);
    assert.deepEqual([...members].filter((m) => !declared.has(m)).sort(), [], `${cls}: members not declared`);
    assert.deepEqual([...declared].filter((m) => m !== 'constructor' && !members.has(m)).sort(), [],
      `${cls}: declared members the class lacks`);
  }
});
