/**
 * Copies yargs' own test files from a yargs checkout (AX_YARGS_SUITE; its 18.1.0 release) to
 * test/ports/yargs/.suite/ (ignored by git), where their bare imports (`chai`) resolve to this checkout's packages, with
 * three edits and no more: `import yargs from '../index.mjs'` imports the harness (harness.ts)
 * instead; validation's `./locales/en.json` is read from the installed yargs; the helpers merge
 * `process.env` with a spread instead of the `hashish` package. An edit that finds nothing to
 * change fails the copy: a checkout that differs is said to, never run half-edited.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '../../..');
/** The yargs checkout (its test/ folder is read). */
export const SUITE_SOURCE = process.env.AX_YARGS_SUITE;
/** The test files run, in this order (completion first: see suite.test.ts). */
export const SUITE_FILES = ['completion.mjs', 'middleware.mjs', 'validation.mjs', 'command.mjs'];

type Edit = [from: string | RegExp, to: string];

function edited(text: string, file: string, edits: Edit[]): string {
  for (const [from, to] of edits) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`yargs suite: ${file} has no ${String(from)} to edit; is the checkout 18.1.0?`);
    text = next;
  }
  return text;
}

/** Writes the edited copy and @returns its folder, or undefined without a checkout. */
export function copySuite(): string | undefined {
  if (!SUITE_SOURCE || !existsSync(join(SUITE_SOURCE, 'test', 'helpers', 'utils.mjs'))) return undefined;
  // inside the checkout but not node_modules: vitest must load the copies itself, so that they share
  // its instance of harness.ts (a file under node_modules is left to Node, a second instance)
  const dir = join(HERE, '.suite');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'helpers'), { recursive: true });
  const harness = pathToFileURL(join(HERE, 'harness.ts')).href;
  const locales = pathToFileURL(join(REPO, 'node_modules/yargs/locales/en.json')).href;
  const read = (f: string) => readFileSync(join(SUITE_SOURCE, 'test', f), 'utf8');
  for (const f of SUITE_FILES) {
    const edits: Edit[] = [["import yargs from '../index.mjs';", `import yargs from ${JSON.stringify(harness)};`]];
    if (f === 'validation.mjs')
      edits.push(["readFileSync('./locales/en.json')", `readFileSync(new URL(${JSON.stringify(locales)}))`]);
    writeFileSync(join(dir, f), edited(read(f), f, edits));
  }
  writeFileSync(
    join(dir, 'helpers/utils.mjs'),
    edited(read('helpers/utils.mjs'), 'helpers/utils.mjs', [
      [/import \* as HashModule from 'hashish';\n/, ''],
      [/const Hash = HashModule\.default;\n/, ''],
      ["Hash.merge(process.env, {_: 'node'})", "{...process.env, _: 'node'}"],
    ]),
  );
  return dir;
}
