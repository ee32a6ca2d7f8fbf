/**
 * yargs' own tests (command, middleware, validation, completion: the test/ folder of a yargs
 * checkout at its 18.1.0 release, named by AX_YARGS_SUITE) run with ax-ts/yargs installed on every
 * program they build (harness.ts): each parse passes the front end's routing check first, and each
 * program is read by the front end (`__schema`) once its test is done. The tests are not published
 * on the npm registry, the only network a clean checkout's CI reaches, and ax-ts carries no copy:
 * without the checkout this file is skipped, saying why. The files are copied under
 * node_modules/.cache with three edits (copy.ts). Three things are checked: the tests pass as they
 * do without the front end; no invocation of theirs is routed to ax-ts; every program is described
 * but the listed ones. docs/frontends.md#yargs-own-test-suite lists the differences and their reasons.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installFrontEnd, readBuilt, routed, testStarts, unreadable } from './harness.ts';
import { installMocha } from './mocha.ts';
import { copySuite, SUITE_FILES, SUITE_SOURCE } from './copy.ts';

/** Tests of those files not run here, and why. */
const SKIPPED = new Map([
  ...[
    'supports absolute dirs',
    'supports relative dirs',
    'supports nested subcommands',
    'supports a "recurse" boolean option',
    'supports a "visit" function option',
    'detects and ignores cyclic dir references',
    "derives 'command' string from filename when not exported",
    'files can be excluded with a callback',
    'files can be excluded with a regex',
    'files can be included with a regex',
    'files can be included with a callback',
    'allows commands files to be written as ESM modules',
    'allows ESM modules commands to be extensible using visit option',
  ].map((t): [string, string] => [`commandDir > ${t}`, "reads yargs' command-module fixtures, not copied"]),
]);

/**
 * The programs of those tests the front end refuses to describe, and why: each a structured error,
 * never a crash. The rest (hundreds) are described.
 */
const REFUSED = new Map([
  ['should support numeric commands', 'a command named `1`: not a tool name model APIs accept'],
  ['throws exception if default command does not have leading $0', 'the program itself throws when built'],
  ['throws error if middleware not function', 'the program itself throws when built'],
]);

const dir = copySuite();
if (dir) {
  process.env.LC_ALL = 'en_US';
  installFrontEnd();
  installMocha(testStarts, readBuilt, SKIPPED);
}

describe.skipIf(!dir)(
  `yargs' tests, the front end installed${dir ? '' : ` (skipped: AX_YARGS_SUITE names no yargs checkout: ${SUITE_SOURCE ?? 'unset'})`}`,
  async () => {
    if (!dir) return;
    for (const file of SUITE_FILES) await import(pathToFileURL(join(dir, file)).href);

    it('no invocation of theirs asks for ax-ts: every one went to yargs untouched', () => {
      expect(routed).toEqual([]);
    });

    it('every program they build is described by __schema, but the listed ones, refused with an error line', () => {
      const names = unreadable.map((u) => [...REFUSED.keys()].find((k) => u.test.endsWith(k)) ?? u.test);
      expect([...new Set(names)].sort()).toEqual([...REFUSED.keys()].sort());
      for (const u of unreadable) expect(u.error).not.toMatch(/^\s+at /m);
    });
  },
);
