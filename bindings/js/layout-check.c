/* The wasm32 struct layouts that the JavaScript package reads and writes (src/capi.js, LAYOUT), checked against
 * the C header when the wasm module is built: a wrong offset in src/capi.js fails the build, never a game.
 * Keep in step with LAYOUT (tools/exports.mjs writes the assertions from it). */
#include <stddef.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "layout-check.h"
