/**
 * The facts `ax-ts build` writes into a built program's entry file, one line of JSON
 * (`const AX_BUILD = {…};`), read by the entry at every start and by `ax-ts schema-manifest`
 * (docs/shipping.md).
 */

/** The line of an entry file that carries its {@link BuildFacts}. */
export const FACTS_LINE = /^const AX_BUILD = (\{.*\});$/m;

/** Precomputed answers to a bare `--help` and `--version` (docs/shipping.md#precomputed-answers). */
export interface Answers {
  /** The whole stdout of `--help` (exit 0, nothing on stderr, at most 4 KiB). */
  help?: string;
  /** The json-mode `--version` envelope with `@TRACE_ID@`, `@SPAN_ID@`, `@IDEMPOTENCY_KEY@` for its ids. */
  version?: string;
}

/** What one build of a program is made of. */
export interface BuildFacts {
  /** The bundle's file name, beside the entry (`<name>.main.js`). */
  main: string;
  /** The program's name (file names, cache keys, the manifest directory `<name>.schema/`). */
  name: string;
  /** 16 hex digits of SHA-256 over the bundle and its lazy chunks. */
  hash: string;
  /** The bundle's size in bytes, as built. */
  size: number;
  /** The lazy-subtree chunks (paths relative to the entry's directory). */
  chunks: string[];
  /** Whether the program mounts ax-ts's `mcp-server` (only then is a bare `mcp-server` served in place). */
  mcp: boolean;
  /** The program's version, embedded at build time. */
  version: string;
  /** Precomputed answers, or null when the build made none. */
  answers: Answers | null;
}

/** The entry file's text for `facts` (`code`: the compiled entry, which reads the global `AX_BUILD`). */
export function entryText(facts: BuildFacts, code: string): string {
  return `#!/usr/bin/env node\n'use strict';\nconst AX_BUILD = ${JSON.stringify(facts)};\n${code}`;
}

/** The facts an entry file carries, or undefined when it carries none. */
export function factsOf(entryText: string): BuildFacts | undefined {
  const m = FACTS_LINE.exec(entryText);
  if (!m) return undefined;
  try {
    const f = JSON.parse(m[1]!) as BuildFacts;
    return typeof f.main === 'string' && typeof f.name === 'string' && typeof f.hash === 'string' ? f : undefined;
  } catch {
    return undefined;
  }
}
