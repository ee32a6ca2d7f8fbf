/**
 * The MCP projection of a command tree on the SDK's low-level `Server` (tools carry raw JSON
 * Schema): tools/list and tools/call, prompts/list and prompts/get, resources/list, resources/read
 * and resources/templates/list, all from the one tree walk that `__schema --as=mcp` prints. One
 * server instance serves one era (docs/mcp-server.md#protocol-eras): a 2025-era session, or one
 * 2026-07-28 request over HTTP (one connection over stdio). Sources: MCP 2025-11-25 and 2026-07-28
 * server features; docs/mcp-server.md.
 */
import type { ServerContext, StandardSchemaV1, Transport } from '@modelcontextprotocol/server';
import { Server } from '../base/sdk.ts';
import type { Command } from '../../lib/tree/command.ts';
import { declarations, defaultToolName, toolRefs, toolStatus } from '../../lib/schema/walk.ts';
import type { LoadFailure } from '../../lib/tree/lazy.ts';
import { toolProperties } from '../../lib/tree/properties.ts';
import { registerCatalog } from './catalog.ts';
import { registerSkills, servedSkill, SKILLS_EXTENSION } from './skills.ts';
import { requestExtra, ToolCall, type CallParams } from '../call/tool-call.ts';
import { progressiveCall, progressiveList } from './progressive.ts';
import type { McpModel, McpServerOptions } from '../call/model.ts';
import type { Era } from '../call/era.ts';
import { CACHE_HINTS, CLIENT_ERROR, LOG_LEVELS, rpcError, type EraName } from '../base/eras.ts';
import { ERAS } from './eras/index.ts';

/**
 * Walks the subtree of `mount` (any command of a tree; the served tree's tools are named relative
 * to it) once. @throws AxError `validation_error` on tool-name collisions, invalid names or
 * duplicate declarations (the server fails closed at start, exit 2).
 */
export function buildModel(mount: Command, unloaded: readonly LoadFailure[] = []): McpModel {
  const refs = toolRefs(mount);
  for (const r of refs) toolProperties(r.command); // property-name collisions refuse the start too (fail closed)
  const { prompts, resources } = declarations(mount);
  return {
    root: mount.root(),
    mount,
    refs,
    byName: new Map(refs.map((r) => [r.name, r])),
    prompts,
    resources,
    defs: new Map(),
    unloaded: unloaded
      .filter((f) => toolStatus(f.command) !== 'excluded' && toolStatus(f.command) !== 'hidden')
      .map((f) => ({ tool: defaultToolName(f.command, mount), error: f.error })),
  };
}

/**
 * The server's default name (serverInfo.name, the key `--print-config` prints): the root's name
 * for a server mounted on the root, else the served command's path joined with `-` (`tasks-grp`).
 */
export function defaultServerName(mount: Command): string {
  return mount.pathNames().join('-');
}

/** A zod issue list as one line: `params.name: Invalid input: expected string, received number`. */
export function issuesLine(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => `${i.path.map(String).join('.') || 'request'}: ${i.message}`)
    .join('; ')
    .replace(/\s+/g, ' ');
}

/** Marks the errors this server's own handlers throw, to tell them from the SDK's parse of the params. */
const OURS = Symbol('ax-ts handler error');

/** A handler whose errors are marked as this server's own. */
function own<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) =>
    handler(...args).catch((e: unknown) => {
      if (e !== null && typeof e === 'object') (e as Record<symbol, boolean>)[OURS] = true;
      throw e;
    });
}

/**
 * Params the SDK refused as not matching the method's schema, as -32602 with a one-line message
 * (the SDK answers some with -32603 and a multi-line validation dump).
 */
function invalidParams(method: string, e: unknown): unknown {
  if (e === null || typeof e !== 'object' || (e as Record<symbol, boolean>)[OURS]) return e;
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (typeof message !== 'string' || (code !== undefined && code !== -32602)) return e;
  if (code === -32602 && !message.includes('\n')) return e; // one line already
  const dump = /\[[\s\S]*\]/.exec(message)?.[0];
  let line = message.replace(/\s+/g, ' ').trim();
  try {
    if (dump) line = issuesLine(JSON.parse(dump) as { path: PropertyKey[]; message: string }[]);
  } catch {
    /* not a zod issue list: the message as one line */
  }
  return rpcError(-32602, `Invalid params for ${method}: ${line}`);
}

/**
 * The low-level Server for one era: prompt, resource and completion methods answered even when
 * nothing is declared (empty lists), params refused on one line, and a 2025-era connection's
 * unknown resource answered with that revision's code (eras.ts).
 */
class AxServer extends Server {
  constructor(
    info: { name: string; version: string },
    options: ConstructorParameters<typeof Server>[1],
    private readonly era: Era,
  ) {
    super(info, options);
  }

  protected override assertRequestHandlerCapability(method: string): void {
    // answered (empty) whatever is advertised
    if (method.startsWith('prompts/') || method.startsWith('resources/') || method.startsWith('completion/')) return;
    super.assertRequestHandlerCapability(method);
  }

  protected override _wrapHandler(
    method: string,
    handler: Parameters<Server['_wrapHandler']>[1],
  ): ReturnType<Server['_wrapHandler']> {
    // tools/call: not the SDK's wrapper, which parses the request and the result again against the
    // protocol's schemas — the largest part of its cost per call. The params are checked by
    // CALL_PARAMS, the arguments against the tool's own inputSchema, and results are built
    // well-formed (tools.ts); its input_required seam is input-required.ts, which checks the
    // answers and the requestState before the run and asks only what the request declares.
    if (method === 'tools/call') return handler; // its params come through CALL_PARAMS: one line already
    const inner = super._wrapHandler(method, handler);
    return (request, ctx) =>
      inner(request, ctx).catch((e: unknown) => {
        throw invalidParams(method, e);
      });
  }

  override connect(transport: Transport): Promise<void> {
    return super.connect(this.era.wire(transport));
  }
}

/** A tools/call request's params: a string `name`, `arguments` an object when present. */
const CALL_PARAMS: StandardSchemaV1<Record<string, unknown>, CallParams> = {
  '~standard': {
    version: 1,
    vendor: 'ax-ts',
    validate: (v) => {
      const p = v as Record<string, unknown>;
      const bad = (key: string, expected: string) => {
        const got = p[key] === null ? 'null' : Array.isArray(p[key]) ? 'array' : typeof p[key];
        return { issues: [{ message: `Invalid input: expected ${expected}, received ${got}`, path: ['params', key] }] };
      };
      const isObj = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
      if (typeof p.name !== 'string') return bad('name', 'string');
      if (p.arguments !== undefined && !isObj(p.arguments)) return bad('arguments', 'object');
      if (p._meta !== undefined && !isObj(p._meta)) return bad('_meta', 'object');
      return { value: p as unknown as CallParams };
    },
  },
};

/** The sentence a preview server (`--dry-run`) adds to its `instructions`. */
export const PREVIEW_INSTRUCTIONS =
  'This server is a preview (started with --dry-run): every tool call runs as a dry run and nothing ' +
  'will be changed; results carry meta.dry_run: true and meta.would lists what a real call would do.';

/** The `instructions` of initialize: the author's, and for a preview server the note that nothing will be changed. */
export function serverInstructions(options: Pick<McpServerOptions, 'instructions' | 'dryRun'>): string | undefined {
  if (!options.dryRun) return options.instructions;
  return options.instructions ? `${options.instructions}\n\n${PREVIEW_INSTRUCTIONS}` : PREVIEW_INSTRUCTIONS;
}

/**
 * A server instance for one era (a 2025-era session; one 2026-07-28 HTTP request or stdio
 * connection), its handlers registered, ready to connect.
 */
export function createServer(model: McpModel, options: McpServerOptions, eraName: EraName): Server {
  const era: Era = ERAS[eraName];
  const capabilities: Record<string, object> = { tools: { listChanged: false }, logging: {} };
  if (model.prompts.length) capabilities.prompts = { listChanged: false };
  const skills = options.skills !== false;
  // the program's skill is served as resources (skills.ts)
  if (model.resources.length || skills) capabilities.resources = { listChanged: false, subscribe: false };
  if (model.prompts.length || model.resources.some((r) => r.decl.uriTemplate)) capabilities.completions = {};
  era.advertise(capabilities);
  if (skills) capabilities.extensions = { ...capabilities.extensions, [SKILLS_EXTENSION]: {} };
  const instructions = serverInstructions(options);
  const server = new AxServer(
    { name: options.name ?? defaultServerName(model.mount), version: options.version },
    { capabilities, cacheHints: CACHE_HINTS, ...(instructions ? { instructions } : {}) },
    era,
  );
  // A client's mistake the transport has already answered (400, 406, 415…) is not the server's
  // error: it leaves no line on stderr unless AX_DEBUG is set.
  server.onerror = (e) => {
    if (CLIENT_ERROR.test(e.message) && !(options.env ?? process.env).AX_DEBUG) return;
    (options.log ?? ((l) => process.stderr.write(`${l}\n`)))(`mcp-server: ${e.message}`);
  };

  // logging/setLevel: the session's lowest level forwarded, RFC 5424 order; default info (what a
  // request's floor is, is its era's: Era.logFloor)
  let minLevel = LOG_LEVELS.indexOf('info');
  server.setRequestHandler(
    'logging/setLevel',
    own(async (request) => {
      minLevel = LOG_LEVELS.indexOf(request.params.level);
      return {};
    }),
  );

  server.setRequestHandler(
    'tools/list',
    own(async () => ({
      tools: (options.discovery === 'progressive' ? progressiveList() : era.toolList(model)) as never,
    })),
  );

  server.setRequestHandler('tools/call', { params: CALL_PARAMS }, async (params: CallParams, ctx: ServerContext) => {
    // the command's tool names the log lines, also when a progressive call tool runs it
    const inner = params.arguments?.name;
    const progressive = options.discovery === 'progressive';
    const logger = progressive && typeof inner === 'string' ? inner : params.name;
    const extra = requestExtra(era, server, ctx, params, minLevel, logger);
    return progressive
      ? progressiveCall(model, options, params.name, params.arguments, extra)
      : new ToolCall(model, options, params.name, params.arguments, extra).answer();
  });

  era.register(server, model, options);
  const skill = skills ? () => servedSkill(model, options.version) : undefined;
  if (skill) registerSkills(server, era, skill, own);
  registerCatalog(server, model, own, skill);
  return server;
}
