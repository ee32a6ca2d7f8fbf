/**
 * `ctx.logger`: a run's structured logger on pino, the field-standard Node logger. pino is loaded
 * (synchronously, with `require`) the first time a handler touches `ctx.logger`, so a run that
 * never logs never loads it. Lines go to the run's stderr — JSON in json mode, a readable line in
 * human mode — and, under `mcp-server`, to the client as `notifications/message`. Source: pino's
 * API (levels, bindings, child loggers, `formatters.level`); ax-go logging (every line carries
 * trace_id/span_id and the labels set once).
 */
import type { Mode } from '../contract/mode.ts';
import type { OutputStream } from '../contract/envelope.ts';
import { LOG_LEVELS, type LogLevel, type Logger } from '../tree/logging.ts';
import { builtinModule } from '../platform/builtin.ts';

/** MCP `notifications/message` levels (RFC 5424 names) a pino level maps to. */
export type NotificationLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

const TO_MCP: Record<string, NotificationLevel> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
  fatal: 'critical',
};

/** Everything a run's logger is built from. */
export interface LoggerSetup {
  stderr: OutputStream;
  mode: Mode;
  /** Lowest level written to stderr. */
  level: LogLevel;
  /** Fields on every line: program, version, command, trace_id, span_id, the labels. */
  base: Record<string, string>;
  /** Receives every line (any level) as an MCP notification: the server filters by the session's level. */
  onLog?: (level: NotificationLevel, data: unknown) => void;
}

/** The level in force: `AX_LOG_LEVEL` when it names a level, else the declared one, else `info`. */
export function logLevelOf(declared: LogLevel | undefined, env: Record<string, string | undefined>): LogLevel {
  const fromEnv = env.AX_LOG_LEVEL?.trim().toLowerCase();
  if (fromEnv && (fromEnv === 'silent' || (LOG_LEVELS as readonly string[]).includes(fromEnv)))
    return fromEnv as LogLevel;
  return declared ?? 'info';
}

const rank = (level: string) => (level === 'silent' ? Infinity : (LOG_LEVELS as readonly string[]).indexOf(level));

/** Human mode: `warn: message key=value …` (the fields every line carries are left out). */
function humanLine(o: Record<string, unknown>, hidden: Set<string>): string {
  const extra = Object.entries(o)
    .filter(([k]) => !hidden.has(k))
    .map(
      ([k, v]) =>
        `${k}=${typeof v === 'string' ? (/[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v) : k === 'err' && v && typeof v === 'object' && 'message' in v ? JSON.stringify((v as { message: unknown }).message) : JSON.stringify(v)}`,
    );
  return `${String(o.level)}: ${String(o.msg ?? '')}${extra.length ? ` ${extra.join(' ')}` : ''}\n`;
}

/**
 * Builds the logger of one run. pino is required here, on first use (through `node:module`, taken
 * then with `process.getBuiltinModule`: a static import would load it at every start).
 * @throws Error only if pino cannot be loaded (it is a dependency of ax-ts).
 */
export function createLogger(s: LoggerSetup): Logger {
  // `require` itself in a built program (the bundler sees it and makes pino a chunk of its own)
  const pino = (
    typeof require === 'function'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundler must see a literal require
        require('pino')
      : builtinModule('node:module').createRequire(import.meta.url)('pino')
  ) as typeof import('pino').default;
  const hidden = new Set(['level', 'time', 'msg', ...Object.keys(s.base)]);
  const min = rank(s.level);
  const destination = {
    write(line: string) {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      if (rank(String(o.level)) >= min) s.stderr.write(s.mode === 'human' ? humanLine(o, hidden) : line);
      s.onLog?.(TO_MCP[String(o.level)] ?? 'info', o);
    },
  };
  const logger = pino(
    {
      // every level reaches the destination when an MCP client may ask for it; stderr is filtered there
      level: s.onLog ? 'trace' : s.level,
      base: s.base,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
    },
    destination,
  );
  return logger as unknown as Logger;
}
