// The yargs that yargs' own tests (copied by copy.ts from a yargs checkout) build their programs with: the real one, and,
// when the front end is installed (`installFrontEnd()`), each program's parse goes through
// ax-ts/yargs' routing check first and is read by the front end once its test is done. The words the
// front end would give to ax-ts instead of yargs are recorded (`routed`), and so is every program
// the front end could not describe (`unreadable`): docs/frontends.md#yargs-own-test-suite.
import realYargs from 'yargs';
import { asksForAx, withAx } from '../../../frontends/yargs/index.ts';

/** Each invocation the front end would route to ax-ts: the test and its words. */
export const routed: { test: string; words: string[] }[] = [];
/** Each program whose `__schema` failed: the test and the error line. */
export const unreadable: { test: string; code: number; error: string }[] = [];
let installed = false;
let current = '';
/** The factories of the programs the running test built, read after it. */
const built: { test: string; factory: (args: string[]) => any }[] = [];

/** Installs the front end on every program built from now on. */
export function installFrontEnd(): void {
  installed = true;
}

/** Names the test now running (the words it routes are recorded under it). */
export function testStarts(name: string): void {
  current = name;
}

// methods that change a program (replayed to build it again); getters and output are not
const SKIP = /^(get|show|parse|exit$|constructor$|terminalWidth$)/;

/** yargs' tokenizing of a string of words, near enough for the routing check. */
function words(args: unknown): string[] {
  if (Array.isArray(args)) return args.map(String);
  return typeof args === 'string' ? args.split(/\s+/).filter(Boolean) : [];
}

export default function yargs(processArgs?: any, cwd?: string, parentRequire?: unknown): any {
  const y = (realYargs as any)(processArgs, cwd, parentRequire);
  if (!installed) return y;
  const recorded: [string, unknown[]][] = [];
  let parsing = 0;
  const proto = Object.getPrototypeOf(y);
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (SKIP.test(name) || typeof proto[name] !== 'function') continue;
    y[name] = function (this: unknown, ...args: unknown[]) {
      if (!parsing) recorded.push([name, args]);
      return proto[name].apply(this, args);
    };
  }
  const factory = (args: string[]) => {
    const z = (realYargs as any)(args, cwd, parentRequire);
    for (const [name, args2] of recorded) z[name](...args2);
    return z;
  };
  built.push({ test: current, factory });
  for (const name of ['parse', 'parseAsync', 'parseSync']) {
    y[name] = function (this: unknown, args?: unknown, ...rest: unknown[]) {
      const w = words(args === undefined ? processArgs : args);
      if (asksForAx(y, w, {})) routed.push({ test: current, words: w });
      parsing++;
      try {
        return proto[name].call(this, args, ...rest);
      } finally {
        parsing--;
      }
    };
  }
  return y;
}

/** Reads every program the finished test built with the front end (`__schema`), recording failures. */
export async function readBuilt(): Promise<void> {
  const programs = built.splice(0);
  for (const { test, factory } of programs) {
    let out = '';
    let err = '';
    const write = { out: process.stdout.write, err: process.stderr.write };
    process.stdout.write = ((c: unknown) => ((out += String(c)), true)) as typeof process.stdout.write;
    process.stderr.write = ((c: unknown) => ((err += String(c)), true)) as typeof process.stderr.write;
    const before = process.exitCode;
    try {
      await withAx(factory).parseAsync(['__schema']);
    } catch (e) {
      err += String(e instanceof Error ? e.stack : e);
      process.exitCode = 1;
    } finally {
      process.stdout.write = write.out;
      process.stderr.write = write.err;
    }
    const code = Number(process.exitCode ?? 0);
    process.exitCode = before;
    if (code !== 0) unreadable.push({ test, code, error: err.trim().split('\n')[0] });
    else if (!out.startsWith('{')) unreadable.push({ test, code, error: `no document: ${out.slice(0, 80)}` });
  }
}
