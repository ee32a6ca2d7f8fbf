/**
 * Bundled first in a program that has lazy subtrees (.ci/bundle.mjs): puts the program's copy of the
 * public API in a registry, so that the chunks of its lazy subtrees use the same `Command` class and
 * tree state instead of bundling a copy of their own.
 */
import * as lib from '../lib/index.ts';

(globalThis as Record<symbol, unknown>)[Symbol.for('ax-ts.bundle.lib')] = lib;
