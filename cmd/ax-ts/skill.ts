/**
 * `ax-ts skill <entry> [--out DIR] [--check]`: writes SKILL.md and AGENTS.md for a program built
 * with ax-ts, beside it (or in --out), from the program's own `__schema --as=skill` and `--as=agents`; with --check,
 * writes nothing and exits 1 when the committed files are stale, so CI can keep them in step.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { AxError, Command, defineError, type RunContext } from '../../lib/index.ts';

/** The committed SKILL.md / AGENTS.md differ from what the program generates now. Exit 1. */
export const skillStale = defineError({
  kind: 'skill_stale',
  exitCode: 1,
  description: 'ax-ts skill --check found SKILL.md or AGENTS.md missing or different from what the program generates.',
});

/** How to run an entry: `.ts` through tsx, `.js/.mjs/.cjs` with this node, anything else as an executable. */
function commandFor(entry: string): { command: string; args: string[] } {
  if (/\.[cm]?ts$/.test(entry)) {
    // tsx as an absolute URL when this module can resolve it (source runs); else the bare name, resolved from the cwd
    const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx') : 'tsx';
    return { command: process.execPath, args: ['--import', tsx, entry] };
  }
  if (/\.[cm]?js$/.test(entry)) return { command: process.execPath, args: [entry] };
  return { command: entry, args: [] };
}

/** Runs the program with `args`; resolves its stdout, or throws a validation_error naming the failure. */
function runProgram(entry: string, args: string[], signal: AbortSignal): Promise<string> {
  const { command, args: pre } = commandFor(entry);
  return new Promise((res, rej) => {
    const child = spawn(command, [...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'], signal });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', (e) =>
      rej(
        new AxError('validation_error', `cannot run ${entry}: ${e.message}`, {
          fix: "Pass the path of the program's entry file (e.g. dist/cli.js or src/main.ts).",
          context: { reason: 'unrunnable_entry', entry },
        }),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return res(out);
      rej(
        new AxError(
          'validation_error',
          `${entry} ${args.join(' ')} exited ${code}: ${err.trim().split('\n').pop() ?? ''}`,
          {
            fix: 'Check that the entry is a program built with ax-ts (it must answer `__schema`).',
            context: { reason: 'schema_failed', entry, exit_code: code },
          },
        ),
      );
    });
  });
}

async function readOr(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The `skill` command. */
export function skillCommand(): Command {
  return new Command({
    use: 'skill <entry>',
    short: 'Write SKILL.md and AGENTS.md for a program built with ax-ts (--check: fail when stale)',
    long:
      'Runs <entry> __schema --as=skill and --as=agents and writes SKILL.md (Agent ' +
      'Skills format) and AGENTS.md beside the entry, or in --out.\n' +
      'With --check nothing is written: the command exits 1 (kind skill_stale) when either file is missing or differs.',
    example:
      'ax-ts skill dist/bin/tasks.js --out skills/tasks\nax-ts skill dist/bin/tasks.js --out skills/tasks --check',
    effects: 'idempotent',
    flags: {
      out: { type: 'string', usage: "directory to write into (default: the entry's directory)" },
      check: { type: 'bool', usage: 'write nothing; exit 1 when the files are missing or stale' },
    },
    output: {
      cardinality: 'single',
      schema: {
        type: 'object',
        properties: {
          dir: { type: 'string' },
          files: { type: 'array', items: { type: 'string' } },
          written: { type: 'boolean' },
          stale: { type: 'array', items: { type: 'string' } },
        },
        required: ['dir', 'files', 'written', 'stale'],
      },
    },
    run: async (ctx: RunContext) => {
      const entry = resolve(String(ctx.args.entry));
      const dir = resolve(typeof ctx.flags.out === 'string' ? ctx.flags.out : dirname(entry));
      const skill = await runProgram(entry, ['__schema', '--as=skill'], ctx.signal);
      // the program's own AGENTS.md: what it says of installing it is what only the program knows
      const files: [string, string][] = [
        ['SKILL.md', skill],
        ['AGENTS.md', await runProgram(entry, ['__schema', '--as=agents'], ctx.signal)],
      ];
      const stale: string[] = [];
      for (const [name, text] of files) if ((await readOr(join(dir, name))) !== text) stale.push(name);
      if (ctx.flags.check) {
        if (stale.length) {
          throw skillStale(`${stale.join(' and ')} in ${dir} ${stale.length > 1 ? 'are' : 'is'} missing or stale`, {
            fix:
              `Run: ax-ts skill ${ctx.args.entry}${ctx.flags.out ? ` --out ${ctx.flags.out}` : ''} ` +
              `(and commit the result).`,
            context: { dir, stale },
          });
        }
        return { dir, files: files.map(([n]) => n), written: false, stale };
      }
      await mkdir(dir, { recursive: true });
      for (const [name, text] of files) await writeFile(join(dir, name), text);
      return { dir, files: files.map(([n]) => n), written: true, stale };
    },
  });
}
