/**
 * The heavy half of `mcp-server`, loaded only when a server starts: startup checks (fail-closed,
 * before any socket opens), then the stdio or HTTP transport. Source: docs/mcp-server.md.
 */
import type { Command } from '../../lib/tree/command.ts';
import { AxError } from '../../lib/contract/errors.ts';
import { buildModel } from '../protocol/server.ts';
import { checkStartup, isWildcard, unloadedWarnings, type ServeSettings } from './startup.ts';
import { withoutSecrets } from '../transport/token.ts';

import { exclusionWarnings } from '../../lib/schema/walk.ts';
import { tracesUrl } from '../../lib/observe/trace.ts';

export {
  checkStartup,
  isLoopback,
  isWildcard,
  loopbackSpelling,
  MAX_INSTRUCTIONS_BYTES,
  parseAddr,
  type ServeSettings,
} from './startup.ts';

/**
 * Runs the server until it is stopped (stdin EOF or SIGTERM for stdio; SIGINT/SIGTERM or `signal`
 * for both). @throws AxError on startup failure (nothing was opened).
 */
export async function runServer(root: Command, s: ServeSettings, signal: AbortSignal): Promise<void> {
  // A supervised server process reports a failed check only once it has its wire (the supervisor
  // made the same checks and sends the wire only if they passed).
  let checked: { where: ReturnType<typeof checkStartup>; model: ReturnType<typeof buildModel> } | { failed: unknown };
  try {
    checked = { where: checkStartup(root, s), model: buildModel(root, s.unloaded) };
  } catch (e) {
    checked = { failed: e };
  }
  const log = s.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const supervision = s.transport === 'stdio' ? await import('../transport/supervise.ts') : undefined;
  // (serving in place, this is the process the client started: a failed check is told at once)
  if ('failed' in checked && supervision?.servedInPlace()) throw checked.failed;
  const wire = await supervision?.takeWire(s.env);
  if ('failed' in checked) throw checked.failed;
  const { where, model } = checked;
  // once: not again in a supervised server process (the supervisor has printed them)
  if (wire?.parentPid === undefined)
    for (const line of [...unloadedWarnings(s.unloaded), ...exclusionWarnings(root)]) log(line);
  // spans to export, but no SDK to export them with (an optional peer dependency): said once, at start
  if (tracesUrl(s.env ?? process.env))
    void import('../../lib/observe/otel.ts')
      .then((m) => m.loadSdk())
      .catch((e: unknown) => log(`mcp-server: ${(e as Error).message}${e instanceof AxError ? ` (${e.fix})` : ''}`));
  const options = serverOptions(s);

  if (supervision) {
    const { canSupervise, superviseStdio } = supervision;
    const { serveStdio } = await import('../transport/stdio.ts');
    if (wire)
      return serveStdio(model, options, signal, {
        input: wire.input,
        output: wire.output,
        maxLineBytes: s.maxLineBytes,
        parentPid: wire.parentPid,
      });
    if (s.isolate !== false && canSupervise()) return superviseStdio(signal);
    return serveStdio(model, options, signal, { input: process.stdin, maxLineBytes: s.maxLineBytes });
  }
  // express and its body parsers load only for HTTP (in the bundle, a chunk of their own)
  const { serveHttp } = await import('../transport/http.ts');
  // a wildcard bind address (0.0.0.0, ::) is never a name a legitimate client sends in Host
  const allowedHosts = [
    'localhost',
    '127.0.0.1',
    '::1',
    ...(isWildcard(where.host) ? [] : [where.host]),
    ...(s.allowedHosts ?? []),
  ];
  try {
    await serveHttp(
      model,
      options,
      {
        host: where.host,
        port: where.port,
        stateless: s.stateless,
        sessionIdleMs: s.sessionIdleMs,
        maxBodyBytes: s.maxBodyBytes,
        maxSessions: s.maxSessions ?? 1000,
        allowedHosts,
        eventStore: s.eventStore,
        token: s.token,
        bounds: s.bounds,
      },
      signal,
      (url) => (s.log ?? ((l) => process.stderr.write(`${l}\n`)))(`mcp-server: listening on ${url}`),
    );
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (
      code === 'EADDRINUSE' ||
      code === 'EACCES' ||
      code === 'EADDRNOTAVAIL' ||
      code === 'ENOTFOUND' ||
      code === 'EAI_AGAIN'
    ) {
      throw new AxError('network_error', `cannot listen on ${s.addr}: ${(e as Error).message}`, {
        fix: 'Choose another --addr (port 0 picks a free one).',
        context: { code },
      });
    }
    throw e;
  }
}

/** What the server that answers requests is given of the settings (secrets left out of its environment). */
function serverOptions(s: ServeSettings) {
  return {
    name: s.name,
    version: s.version,
    instructions: s.instructions,
    skills: s.skills,
    // the process that serves: the secrets stop here (a supervisor hands them to it in its environment)
    env: withoutSecrets(s.env ?? process.env),
    stateKey: s.stateKey,
    log: s.log,
    presets: s.presets,
    dryRun: s.dryRun,
    idempotencyStore: s.idempotencyStore,
    idempotencyTtlMs: s.idempotencyTtlMs,
    discovery: s.discovery,
  };
}
