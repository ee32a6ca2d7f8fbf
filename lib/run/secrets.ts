/**
 * The values of a run's secret flags (`FlagSpec.secret`, docs/security.md#secret-flags): a value
 * given on the command line (or in an `--args-json` object, which is argv too) must name where the
 * secret is — `-` for stdin, `@path` for a file — and is read from there; any other value is refused
 * unless the flag allows argv (`secretArgv`). Over MCP the property is the value itself. Every value
 * found (given, read, or from the flag's env or config source) is noted on the run, so that what it
 * reports is redacted (lib/contract/redact.ts).
 */
import type { Invocation } from '../parse/invocation.ts';
import type { Flag } from '../tree/flags.ts';
import { isSecretReference, secretFlags } from '../tree/secret.ts';
import { STDIN_PROTOCOL_ANNOTATION } from '../tree/marks.ts';
import { validationError } from '../contract/errors.ts';
import { flagLabel } from '../parse/validate.ts';
import { builtinModule } from '../platform/builtin.ts';
import { proxyCredentials } from '../platform/env-proxy.ts';
import type { RunEnv } from './run-env.ts';

/** The longest secret read from a file or stdin (a token, a key: not a data file). */
const MAX_SECRET_BYTES = 64 * 1024;

/**
 * Checks and reads the secret flags given in `inv`, replacing a `-` or `@path` value by what it
 * names, before anything else of the run reads the values.
 * @returns undefined — not a promise — when the command has no secret flag (the common case).
 * @throws AxError `validation_error`: reason `secret_on_argv` (a value on the command line; the
 *   value is in no field of the error), `secret_unreadable` (the file cannot be read, stdin is a
 *   terminal) or `secret_empty`.
 */
export function readSecrets(inv: Invocation, env: RunEnv): Promise<void> | undefined {
  const flags = secretFlags(inv.command);
  return flags.length === 0 ? undefined : readFrom(inv, env, flags);
}

async function readFrom(inv: Invocation, env: RunEnv, flags: readonly Flag[]): Promise<void> {
  const onArgv = inv.source === 'argv' || inv.argsJson !== undefined;
  for (const f of flags) {
    if (!inv.values.has(f.name)) continue;
    const given = inv.values.get(f.name);
    if (typeof given !== 'string' || !onArgv) continue;
    if (isSecretReference(given)) inv.values.set(f.name, await readReference(inv, env, f, given));
    else if (f.spec.secretArgv !== true) throw onArgvRefusal(inv, f);
  }
}

/** Notes the values of the run's secret flags (given or from env or config) for redaction. */
export function noteSecrets(inv: Invocation, env: RunEnv): void {
  const flags = secretFlags(inv.command);
  if (flags.length === 0) return;
  const values: string[] = [];
  for (const f of flags) {
    const v = inv.values.has(f.name) ? inv.values.get(f.name) : inv.sourced?.get(f.name);
    if (typeof v === 'string' && v !== '') values.push(v);
  }
  // the longest first: a secret that contains another is replaced whole
  if (values.length) env.secrets = [...(env.secrets ?? []), ...values].sort((a, b) => b.length - a.length);
}

/**
 * What a failure the run reports is redacted of: its secret flags' values, and the credentials in the
 * proxy URLs of its environment (docs/contract.md#proxies), longest first. Read when a run fails
 * only: a run that succeeds pays nothing.
 */
export function reportedSecrets(env: RunEnv): string[] | undefined {
  const proxy = proxyCredentials(env.env);
  if (!proxy.length) return env.secrets;
  return [...(env.secrets ?? []), ...proxy].sort((a, b) => b.length - a.length);
}

function onArgvRefusal(inv: Invocation, f: Flag) {
  const label = flagLabel(inv, f.name);
  const env = f.spec.env !== undefined ? `Set ${f.spec.env}, or give ` : 'Give ';
  const ways = inv.argsJson
    ? `"${label}": "@<file>" or "${label}": "-" (stdin) in the object`
    : `${label} @<file> or ${label} - (stdin)`;
  return validationError(
    `${label} is a secret and is not accepted as a value on the command line, where other users' ` +
      `ps and the shell's history see it; the value given was not used and is not shown`,
    'secret_on_argv',
    {
      context: { flag: label, ...(f.spec.env !== undefined ? { env: f.spec.env } : {}) },
      fix: `${env}${ways}, the file or stdin holding the value on one line.`,
    },
  );
}

/** The secret `-` (stdin) or `@path` names, its one trailing newline dropped. */
async function readReference(inv: Invocation, env: RunEnv, f: Flag, ref: string): Promise<string> {
  const label = flagLabel(inv, f.name);
  let text: string;
  if (ref === '-') {
    if (inv.command.annotations[STDIN_PROTOCOL_ANNOTATION] === 'true')
      throw validationError(
        `${label} - reads the secret from stdin, and ${inv.command.commandPath()}'s stdin is its protocol channel`,
        'secret_unreadable',
        {
          context: { flag: label, source: 'stdin' },
          fix: `Pass ${label} @<file>, or the secret's environment variable, to ${inv.command.commandPath()}.`,
        },
      );
    if (env.stdinIsTTY())
      throw validationError(`${label} - reads the secret from stdin, and stdin is a terminal`, 'secret_unreadable', {
        context: { flag: label, source: 'stdin' },
        fix: `Pipe the secret in (printf %s "$TOKEN" | …), or pass ${label} @<file>.`,
      });
    const read = await readAll(env.stdin());
    if (read === undefined)
      throw validationError(`${label} -: the secret on stdin is over ${MAX_SECRET_BYTES} bytes`, 'secret_unreadable', {
        context: { flag: label, source: 'stdin' },
        fix: `Pipe in only the secret (a token or a key, at most ${MAX_SECRET_BYTES} bytes).`,
      });
    text = read;
  } else {
    const path = ref.slice(1);
    try {
      const fs = builtinModule('node:fs/promises');
      const handle = await fs.open(path, 'r');
      try {
        const buf = Buffer.alloc(MAX_SECRET_BYTES + 1);
        const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
        if (bytesRead > MAX_SECRET_BYTES) throw new Error(`it is over ${MAX_SECRET_BYTES} bytes`);
        text = buf.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw validationError(`${label} @${path}: the secret file cannot be read (${why})`, 'secret_unreadable', {
        context: { flag: label, path, source: 'file' },
        fix: `Pass ${label} @<file> naming a readable file that holds the secret.`,
      });
    }
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '')
    throw validationError(`${label} ${ref}: the secret read is empty`, 'secret_empty', {
      context: { flag: label, source: ref === '-' ? 'stdin' : 'file' },
      fix: `Put the secret in ${ref === '-' ? 'stdin' : ref.slice(1)}.`,
    });
  return value;
}

/** What `stream` holds, as text; undefined when it is over {@link MAX_SECRET_BYTES}. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    size += b.length;
    if (size > MAX_SECRET_BYTES) return undefined;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
