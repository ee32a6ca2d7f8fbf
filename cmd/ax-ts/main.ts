#!/usr/bin/env node
/**
 * Entry point of the `ax-ts` tool: `node --import tsx cmd/ax-ts/main.ts schema-diff old.json new.json`.
 * `ax-ts wrap <bin> …` takes every word after the bin as the wrapped program's own, so it is
 * dispatched before ax-ts's parser (docs/frontends.md#ax-ts-wrap); a person's invocation through it
 * loads nothing of ax-ts's runtime.
 */
if (process.argv[2] === 'wrap') {
  const { runWrap } = await import('../../frontends/wrap/index.ts');
  const code = await runWrap(process.argv.slice(3));
  // undefined: a person's invocation, the bin ran in this process and set its own exit code
  if (code !== undefined) process.exitCode = code;
} else {
  const { runTool } = await import('./tool.ts');
  runTool();
}
