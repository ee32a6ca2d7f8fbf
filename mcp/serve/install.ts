/**
 * `mcp-server --install <client>` / `--uninstall <client>`: this program's server written into (or
 * taken out of) the MCP configuration of the user's agents — Claude Desktop, Claude Code, Cursor,
 * VS Code, Codex, Gemini CLI, Windsurf — each in its documented file and shape
 * (docs/mcp-server.md#installing-into-clients). The entry is `--print-config`'s: the absolute
 * command that starts this program's server as it runs now. The file is edited, not rewritten:
 * other servers, comments (JSONC, TOML), key order and formatting stay byte for byte; a file that
 * changes is backed up first (`<file>.ax-ts.bak`) and replaced atomically with its mode kept; an
 * unchanged one is not touched, so installing twice is installing once. `--print` says what would
 * change and writes nothing.
 */
import { copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AxError, validationError } from '../../lib/contract/errors.ts';
import { applyJsoncPatch, duplicateKey, parseJsonc, type PatchOperation } from '../../lib/config/config-patch.ts';
import { writeAtomic, writeTarget } from '../../lib/config/config.ts';
import { tomlDefinedElsewhere, tomlWithout, tomlWith } from './install-toml.ts';

/** An entry as `--print-config` gives it: a local command, or a running server's URL. */
export type ServerEntry = { command: string; args: string[] } | { url: string; headers?: Record<string, string> };

type Env = Record<string, string | undefined>;

/** One client: where its file is, which key holds the servers, and how it spells an entry. */
interface ClientSpec {
  title: string;
  file(env: Env, platform: NodeJS.Platform): string | undefined;
  format: 'json' | 'toml';
  /** The key of the servers' map (`mcpServers`; VS Code: `servers`; Codex: the `mcp_servers` tables). */
  key: string;
  /** The entry in this client's spelling; undefined: this client cannot take it. */
  shape(e: ServerEntry): Record<string, unknown> | undefined;
  /** The user-level folder it loads Agent Skills from (`<folder>/<name>/SKILL.md`); none: it has none. */
  skills?(env: Env): string | undefined;
}

const home = (env: Env) => env.HOME ?? env.USERPROFILE;
const under = (env: Env, ...parts: string[]) => (home(env) ? join(home(env)!, ...parts) : undefined);
/** The per-user application data directory: macOS Application Support, Windows APPDATA, else XDG config. */
function appData(env: Env, platform: NodeJS.Platform): string | undefined {
  if (platform === 'darwin') return under(env, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA;
  return env.XDG_CONFIG_HOME || under(env, '.config');
}
const local = (e: ServerEntry) => ('command' in e ? e : undefined);
const remote = (e: ServerEntry) => ('url' in e ? e : undefined);
/** `{ [urlKey]: url, headers? }` for a remote entry; `{command, args}` plus `extra` for a local one. */
function spelled(e: ServerEntry, urlKey: string, extra: Record<string, unknown> = {}, httpExtra = extra) {
  const r = remote(e);
  if (r) return { ...httpExtra, [urlKey]: r.url, ...(r.headers ? { headers: r.headers } : {}) };
  const l = local(e)!;
  return { ...extra, command: l.command, args: l.args };
}

/** The clients, by the name `--install` takes. */
export const CLIENTS: Record<string, ClientSpec> = {
  'claude-desktop': {
    title: 'Claude Desktop',
    file: (env, p) => appData(env, p) && join(appData(env, p)!, 'Claude', 'claude_desktop_config.json'),
    format: 'json',
    key: 'mcpServers',
    shape: (e) => local(e) && spelled(e, 'url'), // its file starts local servers only
  },
  'claude-code': {
    title: 'Claude Code',
    file: (env) => under(env, '.claude.json'),
    format: 'json',
    key: 'mcpServers',
    shape: (e) => spelled(e, 'url', { type: 'stdio' }, { type: 'http' }),
    skills: (env) => under(env, '.claude', 'skills'),
  },
  cursor: {
    title: 'Cursor',
    file: (env) => under(env, '.cursor', 'mcp.json'),
    format: 'json',
    key: 'mcpServers',
    shape: (e) => spelled(e, 'url'),
    skills: (env) => under(env, '.cursor', 'skills'),
  },
  vscode: {
    title: 'VS Code',
    file: (env, p) => appData(env, p) && join(appData(env, p)!, 'Code', 'User', 'mcp.json'),
    format: 'json',
    key: 'servers',
    shape: (e) => spelled(e, 'url', { type: 'stdio' }, { type: 'http' }),
    skills: (env) => under(env, '.copilot', 'skills'), // GitHub Copilot in VS Code
  },
  codex: {
    title: 'Codex',
    file: (env) => (env.CODEX_HOME ? join(env.CODEX_HOME, 'config.toml') : under(env, '.codex', 'config.toml')),
    format: 'toml',
    key: 'mcp_servers',
    shape: (e) => {
      const r = remote(e);
      return r ? { url: r.url, ...(r.headers ? { http_headers: r.headers } : {}) } : spelled(e, 'url');
    },
    skills: (env) => under(env, '.agents', 'skills'), // the shared folder Codex reads
  },
  gemini: {
    title: 'Gemini CLI',
    file: (env) => under(env, '.gemini', 'settings.json'),
    format: 'json',
    key: 'mcpServers',
    shape: (e) => spelled(e, 'httpUrl'),
    skills: (env) => under(env, '.gemini', 'skills'),
  },
  windsurf: {
    title: 'Windsurf',
    file: (env) => under(env, '.codeium', 'windsurf', 'mcp_config.json'),
    format: 'json',
    key: 'mcpServers',
    shape: (e) => spelled(e, 'serverUrl'),
  },
};

/** What `--install`/`--uninstall` did (or, with `--print`, would do) to one client's file. */
export interface InstallChange {
  client: string;
  file: string;
  /** `added`, `updated`, `unchanged` (install); `removed`, `absent` (uninstall). */
  action: 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';
  /** Whether the file was written (false with `--print`, and when nothing changes). */
  written: boolean;
  /** The copy of the file as it was, when it was written over. */
  backup?: string;
  /** The entry as written in this client's spelling (install). */
  entry?: Record<string, unknown>;
}

/** The client names `all` stands for: those whose configuration directory exists. */
async function detected(env: Env, platform: NodeJS.Platform): Promise<string[]> {
  const out: string[] = [];
  for (const [id, spec] of Object.entries(CLIENTS)) {
    const file = spec.file(env, platform);
    if (!file) continue;
    // Claude Code keeps ~/.claude.json beside its ~/.claude directory
    const probe = id === 'claude-code' ? join(dirname(file), '.claude') : dirname(file);
    if (
      await stat(probe).then(
        (s) => s.isDirectory(),
        () => false,
      )
    )
      out.push(id);
    else if (
      await stat(file).then(
        () => true,
        () => false,
      )
    )
      out.push(id);
  }
  return out;
}

/**
 * How a list of clients was given, for the errors about it: by a flag (`words` `--install`, context
 * `{flag}`), or as a command's arguments (`words` `tasks mcp install`, context `{argument: "client"}`).
 */
export interface ClientsGiven {
  words: string;
  context: { flag: string } | { argument: 'client' };
}

/**
 * The client names a `--install`/`--uninstall` list (or `mcp install`'s arguments) stands for
 * (`all`: every detected client).
 * @throws AxError validation_error (reason `unknown_client`) for a name that is no client; reason
 *   `no_client_found` when `all` finds none.
 */
export async function clientsOf(names: readonly string[], env: Env, platform: NodeJS.Platform, given: ClientsGiven) {
  const out = new Set<string>();
  const { words, context } = given;
  for (const n of names) {
    if (n === 'all') {
      const found = await detected(env, platform);
      if (!found.length)
        throw validationError(
          `${words} all found no client configuration under ${home(env) ?? 'the home directory'}`,
          'no_client_found',
          {
            context: { ...context, clients: Object.keys(CLIENTS) },
            fix: `Name the client: ${words} ${Object.keys(CLIENTS).join('|')}.`,
          },
        );
      found.forEach((c) => out.add(c));
    } else if (n in CLIENTS) out.add(n);
    else
      throw validationError(`${words}: unknown client ${JSON.stringify(n)}`, 'unknown_client', {
        context: { ...context, value: n, clients: [...Object.keys(CLIENTS), 'all'] },
        fix: `Use one of: ${[...Object.keys(CLIENTS), 'all'].join(', ')}.`,
      });
  }
  return [...out];
}

const pointer = (...keys: string[]) => keys.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The file's text and mode, or undefined when it does not exist. */
async function current(file: string): Promise<{ text: string; mode: number } | undefined> {
  try {
    const [text, s] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return { text, mode: s.mode & 0o7777 };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AxError('validation_error', `cannot read ${file}: ${(e as Error).message}`, {
      context: { reason: 'client_config_unreadable', path: file },
      fix: `Check ${file}'s permissions; nothing was changed.`,
    });
  }
}

const invalid = (file: string, what: string) =>
  new AxError('validation_error', `${file} ${what}`, {
    context: { reason: 'client_config_invalid', path: file },
    fix: `Fix ${file} by hand (or move it aside); nothing was changed.`,
  });

/**
 * The new text of a JSON(C) client file with `name` set to `entry` (or removed: undefined). A byte
 * order mark stays; a key the file defines twice, or servers that are no object, are refused.
 */
function jsonEdit(file: string, text: string | undefined, key: string, name: string, entry: unknown) {
  const bom = text?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? text!.slice(1) : text;
  const source = body?.trim() ? body : '{}\n';
  const parsed = parseJsonc(source);
  if (parsed.error || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    throw new AxError(
      'validation_error',
      `${file} is not a JSON ` +
        `object${parsed.error ? ` (line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.error})` : ''}`,
      {
        context: { reason: 'client_config_invalid', path: file },
        fix: `Fix ${file} by hand (or move it aside); nothing was changed.`,
      },
    );
  const twice = duplicateKey(source, [key, name]);
  if (twice) throw invalid(file, `defines ${twice.map((k) => JSON.stringify(k)).join(' → ')} more than once`);
  const servers = (parsed.value as Record<string, unknown>)[key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers)))
    throw invalid(
      file,
      `has ${JSON.stringify(key)} as ` +
        `${Array.isArray(servers) ? 'an array' : String(servers === null ? 'null' : typeof servers)}, ` +
        `not an object of servers`,
    );
  const before = servers ? (servers as Record<string, unknown>)[name] : undefined;
  if (entry === undefined) {
    if (before === undefined) return { before, text: text ?? '' };
    return { before, text: bom + applyJsoncPatch(source, [{ op: 'remove', path: pointer(key, name) }]) };
  }
  const ops: PatchOperation[] = [];
  if (servers === undefined) ops.push({ op: 'add', path: pointer(key), value: {} });
  ops.push({ op: 'add', path: pointer(key, name), value: entry });
  return { before, text: bom + applyJsoncPatch(source, ops) };
}

/**
 * Installs (`entry` given) or uninstalls (`entry` undefined) `name` in each of `clients`' files.
 * @throws AxError validation_error for a client that cannot take the entry (reason
 *   `client_unsupported`) or whose file cannot be read as its format; nothing is written to any
 *   file unless every one can be edited.
 */
export async function editClients(
  clients: readonly string[],
  name: string,
  entry: ServerEntry | undefined,
  o: { env: Env; platform: NodeJS.Platform; print: boolean },
): Promise<InstallChange[]> {
  const plans: { change: InstallChange; text: string; mode: number; was?: string }[] = [];
  for (const client of clients) {
    const spec = CLIENTS[client]!;
    const file = spec.file(o.env, o.platform);
    if (!file)
      throw validationError(
        `cannot tell where ${spec.title} keeps its configuration: HOME is not set`,
        'client_unsupported',
        {
          context: { client },
          fix: 'Set HOME (USERPROFILE, APPDATA on Windows) and run it again.',
        },
      );
    const shaped = entry && spec.shape(entry);
    if (entry && !shaped)
      throw validationError(
        `${spec.title} starts local servers only: it cannot take a server's URL`,
        'client_unsupported',
        {
          context: { client },
          fix: `Install it for ${spec.title} without --transport http.`,
        },
      );
    const was = await current(file);
    if (spec.format === 'toml' && was && tomlDefinedElsewhere(was.text, spec.key, name))
      throw new AxError('validation_error', `${file} defines ${spec.key}.${name} other than as its own table`, {
        context: { reason: 'client_config_invalid', path: file },
        fix:
          `Move ${spec.key}.${name} to a [${spec.key}.${name}] table ` +
          `of its own (or remove it) by hand; nothing was changed.`,
      });
    const edited =
      spec.format === 'toml'
        ? shaped
          ? tomlWith(was?.text ?? '', spec.key, name, shaped)
          : tomlWithout(was?.text ?? '', spec.key, name)
        : jsonEdit(file, was?.text, spec.key, name, shaped);
    const action: InstallChange['action'] = shaped
      ? edited.before === undefined
        ? 'added'
        : same(edited.before, shaped) || edited.text === was?.text
          ? 'unchanged'
          : 'updated'
      : edited.before === undefined
        ? 'absent'
        : 'removed';
    const write = !o.print && action !== 'unchanged' && action !== 'absent';
    plans.push({
      change: { client, file, action, written: write, ...(shaped ? { entry: shaped } : {}) },
      text: edited.text,
      mode: was?.mode ?? 0o600,
      was: was?.text,
    });
  }
  await writeAll(plans);
  return plans.map((p) => p.change);
}

/**
 * Writes each planned file (a backup of one that existed first); when one cannot be written, the
 * ones written before it are given back as they were (or removed, if they were new) and the error
 * says so: all clients are edited, or none.
 */
async function writeAll(plans: { change: InstallChange; text: string; mode: number; was?: string }[]): Promise<void> {
  const done: typeof plans = [];
  try {
    for (const p of plans) {
      if (!p.change.written) continue;
      if (p.was !== undefined) {
        p.change.backup = `${p.change.file}.ax-ts.bak`;
        await copyFile(p.change.file, p.change.backup);
      } else await mkdir(dirname(p.change.file), { recursive: true, mode: 0o700 });
      await writeAtomic(p.change.file, p.text, p.mode);
      done.push(p);
    }
  } catch (e) {
    const restored: string[] = [];
    for (const p of done.reverse()) {
      // a file it made goes again; through a dangling link, the link stays and the target it made goes
      await (
        p.was !== undefined
          ? writeAtomic(p.change.file, p.was, p.mode)
          : writeTarget(p.change.file).then((made) => rm(made, { force: true }))
      )
        .then(() => restored.push(p.change.file))
        .catch(() => undefined);
    }
    const err = e instanceof AxError ? e : new AxError('internal_error', (e as Error).message, { cause: e });
    throw new AxError(
      err.kind,
      `${err.message}${restored.length ? `; ${restored.join(', ')} given back as before` : ''}`,
      {
        cause: err,
        context: { ...err.context, restored },
        fix: `${err.fix ?? 'Check that the file can be written.'} No client was changed.`,
      },
    );
  }
}
