/* The C signatures the JavaScript package calls, the header's bounds it uses and the wasm32 struct layouts it
 * reads and writes (src/capi.js: SIGNATURES, CONSTANTS and LAYOUT), checked against the C headers when the wasm
 * module is built: a wrong signature, value or offset in src/capi.js fails the build, never a game.
 * tools/exports.mjs writes the assertions (layout-check.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <stpete/bots.h>
#include <stpete/stpete.h>

#include "layout-check.h"
