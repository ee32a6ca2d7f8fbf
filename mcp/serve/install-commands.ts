/**
 * `<program> mcp install|uninstall <client...>` and `<program> skills install|uninstall <client...>`:
 * the command spelling of `mcp-server --install`/`--uninstall` (`--skill`), added beside
 * `mcp-server` (so only a program that serves MCP has them), hidden as `doctor` is: no MCP tools,
 * not in `__schema`, the help's list or SKILL.md. They run the flags' code (./configure.ts): same
 * clients, output, errors and exit codes (docs/mcp-server.md#installing-into-clients). Light: the
 * install code loads only when one runs.
 */
import { validationError } from '../../lib/contract/errors.ts';
import { Command, type RunContext } from '../../lib/tree/command.ts';
import type { ArgsValidator } from '../../lib/tree/args.ts';
import type { FlagSpec } from '../../lib/tree/flag-spec.ts';
import { BUILTIN_ANNOTATION, rootTakesPositionals } from '../../lib/tree/marks.ts';
import { CLIENT_NAMES } from './client-names.ts';
import type { ServeSettings } from './startup.ts';

/** What the commands share with the `mcp-server` they are added beside. */
export interface InstallMount {
  /** `mcp-server`'s flags: those that shape a client's entry are taken from here. */
  flags: Record<string, FlagSpec>;
  /** The settings a run gives (`mcp-server`'s, its flags absent here at their defaults). */
  settings(ctx: RunContext): ServeSettings;
  /** The mount's `name` option. */
  name?: string;
}

const builtin = { [BUILTIN_ANNOTATION]: 'true' };
const CLIENTS = [...CLIENT_NAMES.split(', '), 'all'];

/** The usage of `mcp-server`'s flags that shape the entry, as `mcp install` reads them. */
const ENTRY_FLAGS: Record<string, string> = {
  transport: "stdio: the client starts this program's server; http: the client reaches a running one (--addr)",
  addr: 'with --transport http: the address the running server listens on (host:port)',
  'allow-non-loopback': 'with --transport http: allow a non-loopback --addr (requires a bearer token: --token-file)',
  'token-file': 'with --transport http: file holding the bearer token the client sends (else $AX_MCP_TOKEN)',
  discovery:
    "the server's --discovery: tools, one MCP tool per command; progressive, four tools that find and call them",
};

/** How the texts name what is installed: the program's, or (mounted under `grp`) `tasks grp`'s. */
function named(at: Command) {
  const path = at.commandPath();
  const top = at.parent === undefined;
  return {
    path,
    server: top ? "this program's MCP server" : `the MCP server of ${path}`,
    skill: top ? "this program's SKILL.md" : `the SKILL.md of ${path}`,
    // the skill of the command the server serves (`__schema` is the root's, a whole program's)
    rendered: top ? `as ${path} __schema --as=skill prints it` : `the skill of its commands`,
  };
}

/**
 * Adds the hidden `mcp` and `skills` groups to `at` (the command `mcp-server` is mounted on), each
 * unless `at` has a child of that name already (the author's wins, as the built-ins yield) or takes
 * positionals (a word there is an argument, and a built-in never changes that).
 */
export function mountInstallCommands(at: Command, m: InstallMount): void {
  if (rootTakesPositionals(at)) return;
  const n = named(at);
  const clients = `the AI clients named: ${CLIENT_NAMES}, or all (every client found)`;
  if (!at.findChild('mcp'))
    at.addCommand(
      group(
        'mcp',
        `Install ${n.server} into AI clients`,
        `Write ${n.server} into (or take it out of) the configuration of ${clients}. ` +
          `The same as ${n.path} mcp-server --install <client> (--uninstall <client>).`,
        [serverVerb(at, m, false), serverVerb(at, m, true)],
      ),
    );
  if (!at.findChild('skills'))
    at.addCommand(
      group(
        'skills',
        `Install ${n.skill} into AI clients`,
        `Put ${n.skill} (${n.rendered}) into (or take it out of) the skills folder of ${clients}; ` +
          `Claude Desktop and Windsurf have none. No MCP server entry is written ` +
          `(${n.path} mcp install --skill does both).`,
        [skillVerb(at, m, false), skillVerb(at, m, true)],
      ),
    );
}

function group(name: string, short: string, long: string, verbs: Command[]): Command {
  return new Command({ use: name, short, long, hidden: true, annotations: builtin, commands: verbs });
}

/** `<client...>`, one at least: a usage error that lists the clients when none is given. */
const someClient: ArgsValidator = (t, args) => {
  if (args.length) return;
  throw validationError(`${t.commandPath}: name the client(s): ${CLIENTS.join(', ')}`, 'missing_argument', {
    context: { command: t.commandPath, argument: 'client', clients: CLIENTS },
    fix: `Run ${t.commandPath} <client...>, each one of: ${CLIENTS.join(', ')}.`,
    usage: t.commandPath,
  });
};

/** A verb with its text; its handler makes the edit (./configure.ts). */
function verb(
  at: Command,
  m: InstallMount,
  o: { remove: boolean; server: boolean; short: string; example: string; flags: Record<string, FlagSpec> },
): Command {
  const name = o.remove ? 'uninstall' : 'install';
  return new Command({
    use: `${name} <client...>`,
    short: o.short,
    example: o.example,
    args: [{ name: 'client', variadic: true, description: `${CLIENT_NAMES}, or all (every client found)` }],
    validateArgs: someClient,
    annotations: builtin,
    effects: 'idempotent', // twice is once (docs/mcp-server.md#installing-into-clients)
    output: { kind: 'opaque', mediaType: 'application/json' },
    flags: {
      ...o.flags,
      print: { type: 'bool', usage: 'say what would change, write nothing' },
    },
    run: async (ctx) => {
      const { configureClients } = await import('./configure.ts');
      return configureClients(ctx, at, m.settings(ctx), m.name, {
        clients: ctx.args.client as string[],
        remove: o.remove,
        print: ctx.flags.print === true,
        server: o.server,
        skill: !o.server || ctx.flags.skill === true,
        given: { words: ctx.command.commandPath(), context: { argument: 'client' } },
      });
    },
  });
}

/** `mcp install|uninstall`: `mcp-server --install|--uninstall`. */
function serverVerb(at: Command, m: InstallMount, remove: boolean): Command {
  const n = named(at);
  const p = `${n.path} mcp ${remove ? 'uninstall' : 'install'}`;
  const flags: Record<string, FlagSpec> = {};
  for (const [f, usage] of Object.entries(ENTRY_FLAGS)) if (m.flags[f]) flags[f] = { ...m.flags[f], usage };
  flags.skill = {
    type: 'bool',
    usage: remove
      ? `also take ${n.skill} out of the client's skills folder`
      : `also put ${n.skill} in the client's skills folder`,
  };
  return verb(at, m, {
    remove,
    server: true,
    short: remove
      ? `Take ${n.server} out of AI clients' configuration`
      : `Write ${n.server} into AI clients' configuration`,
    example: remove ? `${p} cursor\n${p} all --skill` : `${p} cursor\n${p} all --print\n${p} claude-code codex --skill`,
    flags,
  });
}

/** `skills install|uninstall`: the SKILL.md of `mcp-server --install … --skill`, alone. */
function skillVerb(at: Command, m: InstallMount, remove: boolean): Command {
  const n = named(at);
  const p = `${n.path} skills ${remove ? 'uninstall' : 'install'}`;
  return verb(at, m, {
    remove,
    server: false,
    short: remove
      ? `Take ${n.skill} out of AI clients' skills folders`
      : `Put ${n.skill} into AI clients' skills folders`,
    example: remove ? `${p} cursor` : `${p} cursor\n${p} all --print`,
    flags: {},
  });
}
