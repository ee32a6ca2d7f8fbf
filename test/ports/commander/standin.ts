/**
 * The stand-in for commander's own entry that commander's test suite imports (`../index.js`, and
 * its internal `../lib/command.js`, `../lib/option.js`): commander unchanged, except that every
 * program the suite builds — `new Command()`, `program`, `createCommand()` — has the ax-ts front end
 * installed (`withAx`, docs/frontends.md#commanders-own-test-suite). Written beside a copy of the
 * suite's tests/ folder under node_modules/.cache, so the suite's bare `commander` imports resolve
 * to this checkout's installed commander.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Writes index.js, lib/command.js, lib/option.js and package.json into `dir`; `frontEnd` is frontends/commander/index.ts. */
export function writeStandIn(dir: string, frontEnd: string): void {
  mkdirSync(join(dir, 'lib'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(
    join(dir, 'index.js'),
    [
      "import * as commander from 'commander';",
      `import { withAx } from ${JSON.stringify(pathToFileURL(frontEnd).href)};`,
      "export * from 'commander';",
      "/** commander's Command with `withAx` installed on every instance (subclasses too). */",
      'export class Command extends commander.Command {',
      '  constructor(name) {',
      '    super(name);',
      '    withAx(this);',
      '  }',
      '}',
      'export const program = new Command();',
      'export const createCommand = (name) => new Command(name);',
      '',
    ].join('\n'),
  );
  // two of the suite's tests import commander's internal modules, which its package does not export
  for (const m of ['command', 'option'])
    writeFileSync(join(dir, 'lib', `${m}.js`), `export * from '../../../commander/lib/${m}.js';\n`);
}
