/**
 * `mcp-server --print-config`, `--install` and `--uninstall` (and the hidden `mcp install|uninstall`,
 * `skills install|uninstall` commands, ./install-commands.ts, which come here too): the entry a
 * client needs to start this program's server (or reach a running one), printed or written into the
 * clients' configuration files (./install.ts), and the program's SKILL.md put into their skills
 * folders (./install-skill.ts); docs/mcp-server.md#installing-into-clients. Loaded only when asked for.
 */
import { validationError } from '../../lib/contract/errors.ts';
import type { RunContext, Command } from '../../lib/tree/command.ts';
import { carriedFlags } from './carried.ts';
import { clientConfig } from './client-config.ts';
import { clientsOf, editClients, type ClientsGiven, type ServerEntry } from './install.ts';
import { checkStartup, checkTree, type ServeSettings } from './startup.ts';

/** One install or uninstall: into (or out of) which clients, and what. */
export interface ClientEdit {
  /** The client names as given (`all` among them). */
  clients: string[];
  /** Take out (uninstall) rather than put in. */
  remove: boolean;
  /** Say what would change, write nothing. */
  print: boolean;
  /** The server entry (false: the skill only, `skills install`). */
  server: boolean;
  /** The program's SKILL.md too (or only, with `server` false). */
  skill: boolean;
  /** How the clients were given, for the errors about them. */
  given: ClientsGiven;
}

/**
 * The edit `mcp-server --install`/`--uninstall`/`--print`/`--skill` ask for; undefined for neither
 * (`--print-config`). @throws AxError validation_error (`mutually_exclusive_flags`) for both.
 */
export function flagEdit(ctx: RunContext): ClientEdit | undefined {
  const install = ctx.flags.install as string[];
  const uninstall = ctx.flags.uninstall as string[];
  if (!install.length && !uninstall.length) return undefined;
  if (install.length && uninstall.length)
    throw validationError('--install and --uninstall cannot be given together', 'mutually_exclusive_flags', {
      context: { flags: ['--install', '--uninstall'] },
      fix: 'Run one, then the other.',
    });
  const flag = install.length ? '--install' : '--uninstall';
  return {
    clients: install.length ? install : uninstall,
    remove: !install.length,
    print: ctx.flags.print === true,
    server: true,
    skill: ctx.flags.skill === true,
    given: { words: flag, context: { flag } },
  };
}

/**
 * Prints the `mcpServers` block (no `edit`), or makes the edit in the named clients' files.
 * @param root the command the server is mounted on (the one it serves).
 * @param serverName the mount's `name` option, if any.
 * @throws AxError what the server would refuse at start (checked without loading the server stack;
 *   not for the skill alone); validation_error for an unknown client or one that cannot take the
 *   entry; what the edit throws.
 */
export async function configureClients(
  ctx: RunContext,
  root: Command,
  settings: ServeSettings,
  serverName: string | undefined,
  edit?: ClientEdit,
): Promise<string> {
  const name = serverName ?? root.pathNames().join('-'); // as the server's defaultServerName
  const env = ctx.env;
  const block = !edit || edit.server ? serverBlock(ctx, root, settings, name) : undefined;
  if (!edit) return `${JSON.stringify(block, null, 2)}\n`;
  const clients = await clientsOf(edit.clients, env, process.platform, edit.given);
  const out: Record<string, unknown> = {};
  if (block) {
    const entry = (block.mcpServers as Record<string, ServerEntry>)[name]!;
    out.server = name;
    out.changes = await editClients(clients, name, edit.remove ? undefined : entry, {
      env,
      platform: process.platform,
      print: edit.print,
    });
  }
  if (edit.skill) {
    // the skill of the served command, as `__schema --as=skill` renders it
    const { shapeRender } = await import('../../lib/schema/documents.ts');
    const { skillName } = await import('../../lib/schema/skill.ts');
    const { editSkills } = await import('./install-skill.ts');
    const text = shapeRender('skill').whole(root, ctx.version);
    out.skill = skillName(root.name);
    out.skills = await editSkills(clients, skillName(root.name), text, { env, print: edit.print, remove: edit.remove });
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** The `mcpServers` block of the server mounted on `root`, once the start-up checks pass. */
function serverBlock(ctx: RunContext, root: Command, settings: ServeSettings, name: string) {
  const where = checkStartup(root, settings);
  checkTree(root);
  let http: { url: string; token?: string } | undefined;
  if (settings.transport === 'http') {
    if (where.port === 0) {
      throw validationError(
        `the client needs the port the server will listen on; ` +
          `--addr ${settings.addr} picks a free one at start, which no client could find`,
        'invalid_address',
        {
          context: { flag: '--addr', value: settings.addr },
          fix: 'Pass a fixed port, e.g. --addr 127.0.0.1:8080, and start the server with the same --addr.',
        },
      );
    }
    // the client connects to a running server: its URL (start it separately)
    http = { url: `http://${String(settings.addr).replace(/^:/, '127.0.0.1:')}/mcp`, token: settings.token };
  }
  const path = root.pathNames().slice(1);
  // the discovery given on this command line, so the client's server lists what this one would
  const own = ctx.changed('discovery') ? [`--discovery=${settings.discovery}`] : [];
  return clientConfig(name, undefined, http, carriedFlags(ctx), path, own);
}
