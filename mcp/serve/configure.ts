/**
 * `mcp-server --print-config`, `--install` and `--uninstall`: the entry a client needs to start this
 * program's server (or reach a running one), printed or written into the clients' configuration
 * files (./install.ts; docs/mcp-server.md#connecting-a-client). Loaded only when asked for.
 */
import { validationError } from '../../lib/contract/errors.ts';
import type { RunContext, Command } from '../../lib/tree/command.ts';
import { carriedFlags } from './carried.ts';
import { clientConfig } from './client-config.ts';
import { clientsOf, editClients, type ServerEntry } from './install.ts';
import { checkStartup, checkTree, type ServeSettings } from './startup.ts';

/**
 * Prints the `mcpServers` block, or installs/uninstalls it in the named clients' files.
 * @param serverName the mount's `name` option, if any.
 * @throws AxError what the server would refuse at start (checked without loading the server stack);
 *   validation_error for an unknown client or one that cannot take the entry; what the edit throws.
 */
export async function configureClients(
  ctx: RunContext,
  root: Command,
  settings: ServeSettings,
  serverName: string | undefined,
): Promise<string> {
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
  const served = ctx.command.parent ?? root;
  const name = serverName ?? served.pathNames().join('-'); // as the server's defaultServerName
  const path = served.pathNames().slice(1);
  // the discovery given on this command line, so the client's server lists what this one would
  const own = ctx.changed('discovery') ? [`--discovery=${settings.discovery}`] : [];
  const block = clientConfig(name, undefined, http, carriedFlags(ctx), path, own);
  const install = ctx.flags.install as string[];
  const uninstall = ctx.flags.uninstall as string[];
  if (!install.length && !uninstall.length) return `${JSON.stringify(block, null, 2)}\n`;
  if (install.length && uninstall.length)
    throw validationError('--install and --uninstall cannot be given together', 'mutually_exclusive_flags', {
      context: { flags: ['--install', '--uninstall'] },
      fix: 'Run one, then the other.',
    });
  const env = ctx.env;
  const entry = (block.mcpServers as Record<string, ServerEntry>)[name]!;
  const flag = install.length ? '--install' : '--uninstall';
  const clients = await clientsOf(install.length ? install : uninstall, env, process.platform, flag);
  const print = ctx.flags.print === true;
  const changes = await editClients(clients, name, install.length ? entry : undefined, {
    env,
    platform: process.platform,
    print,
  });
  if (!ctx.flags.skill) return `${JSON.stringify({ server: name, changes }, null, 2)}\n`;
  // the skill of the served subtree, as `__schema --as=skill` renders it
  const { shapeRender } = await import('../../lib/schema/documents.ts');
  const { skillName } = await import('../../lib/schema/skill.ts');
  const { editSkills } = await import('./install-skill.ts');
  const render = shapeRender('skill');
  const text = served === root ? render.whole(root, ctx.version) : render.within(root, served, ctx.version);
  const skills = await editSkills(clients, skillName(root.name), text, { env, print, remove: !install.length });
  return `${JSON.stringify({ server: name, changes, skill: skillName(root.name), skills }, null, 2)}\n`;
}
