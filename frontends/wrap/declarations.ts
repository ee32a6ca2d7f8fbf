/**
 * Declarations for a program `ax-ts wrap` serves (docs/frontends.md#ax-ts-wrap-a-program-you-do-not-own):
 * a JSON file, `<bin-name>.ax.json` beside the program or the one `--declarations` names, whose keys
 * are command paths (`""` the program itself, `"a b"` its command `b` under `a`) and whose values
 * are the declarations `ax(cmd)` records: effects, capabilities, destructive, output, withheld, secrets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command as CommanderCommand } from 'commander';
import { AxError } from '../../lib/index.ts';
import { ax } from '../commander/declare.ts';
import type { AxDeclarations } from '../shared/declare.ts';

/** The keys a command's declaration may have. */
const KEYS = ['effects', 'capabilities', 'destructive', 'output', 'withheld', 'secrets'] as const;
const EFFECTS = ['read_only', 'idempotent', 'non_idempotent'];

function invalid(file: string, message: string, extra: Record<string, unknown> = {}): AxError {
  return new AxError('validation_error', `${file}: ${message}`, {
    context: { reason: 'invalid_declarations', path: file, ...extra },
    fix: `Key the file by command path ("" for the program, "a b" for a subcommand) with only ${KEYS.join(', ')} in each value (docs/frontends.md#ax-ts-wrap-a-program-you-do-not-own).`,
  });
}

/** The declarations file of a bin: the one given, else `<name>.ax.json` beside the bin or its real file. */
export function declarationsFile(
  given: string | undefined,
  bin: string,
  real: string,
  name: string,
): string | undefined {
  if (given !== undefined) return given;
  return [join(dirname(bin), `${name}.ax.json`), join(dirname(real), `${name}.ax.json`)].find((f) => existsSync(f));
}

/** The command a path names (words separated by spaces; `""` the program), if any. */
function commandAt(program: CommanderCommand, path: string): CommanderCommand | undefined {
  let at: CommanderCommand | undefined = program;
  for (const w of path.split(' ').filter(Boolean)) at = at?.commands.find((c) => c.name() === w);
  return at;
}

/**
 * Reads `file` and records each command's declarations on the program's twin source.
 * @throws AxError `validation_error` (reason `invalid_declarations`) for an unreadable file, a path
 *   naming no command, an unknown key or a value of the wrong type.
 */
export function applyDeclarationsFile(program: CommanderCommand, file: string): void {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')); // an editor's byte order mark is no JSON error
  } catch (e) {
    throw invalid(file, `cannot be read as JSON (${(e as Error).message})`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw invalid(file, 'is not a JSON object');
  for (const [path, value] of Object.entries(doc as Record<string, unknown>)) {
    const cmd = commandAt(program, path);
    if (!cmd) throw invalid(file, `${JSON.stringify(path)} names no command of the program`, { command: path });
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw invalid(file, `the declarations of ${JSON.stringify(path)} are not an object`, { command: path });
    const d = value as Record<string, unknown>;
    const unknown = Object.keys(d).filter((k) => !(KEYS as readonly string[]).includes(k));
    if (unknown.length)
      throw invalid(file, `unknown key ${JSON.stringify(unknown[0])} at ${JSON.stringify(path)}`, {
        command: path,
        key: unknown[0],
      });
    if (d.effects !== undefined && !EFFECTS.includes(d.effects as string))
      throw invalid(file, `effects of ${JSON.stringify(path)} must be one of ${EFFECTS.join(', ')}`, {
        command: path,
        key: 'effects',
      });
    for (const k of ['destructive', 'withheld'] as const)
      if (d[k] !== undefined && typeof d[k] !== 'boolean')
        throw invalid(file, `${k} of ${JSON.stringify(path)} must be true or false`, { command: path, key: k });
    if (d.output !== undefined && (typeof d.output !== 'object' || d.output === null || !('schema' in d.output)))
      throw invalid(file, `output of ${JSON.stringify(path)} must be an object with a schema`, {
        command: path,
        key: 'output',
      });
    if (d.capabilities !== undefined && !Array.isArray(d.capabilities))
      throw invalid(file, `capabilities of ${JSON.stringify(path)} must be a list`, {
        command: path,
        key: 'capabilities',
      });
    if (d.secrets !== undefined && !(Array.isArray(d.secrets) && d.secrets.every((s) => typeof s === 'string')))
      throw invalid(file, `secrets of ${JSON.stringify(path)} must be a list of option names`, {
        command: path,
        key: 'secrets',
      });
    const decl = d as AxDeclarations;
    const chain = ax(cmd);
    if (decl.effects) chain.effects(decl.effects);
    if (decl.capabilities) chain.capabilities(...decl.capabilities);
    if (decl.destructive !== undefined) chain.destructive(decl.destructive);
    if (decl.output) chain.output(decl.output);
    if (decl.withheld) chain.withheld();
    if (decl.secrets) chain.secret(...decl.secrets);
  }
}
