/**
 * Declarations of a run's structured logger (`ctx.logger`): its levels, the logging declaration of
 * a root command (level and labels, set once) and the logger's shape. The logger itself is built in
 * lib/observe/logger.ts (on pino, loaded only when a handler uses it).
 */

/** Levels of `ctx.logger`, lowest first (pino's levels); `silent` turns stderr lines off. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
/** One level of {@link LOG_LEVELS}, or `silent`. */
export type LogLevel = (typeof LOG_LEVELS)[number] | 'silent';

/** Fields ax-ts sets on every log line; labels may not use these names. */
export const RESERVED_LOG_FIELDS = [
  'level',
  'time',
  'msg',
  'program',
  'version',
  'command',
  'trace_id',
  'span_id',
] as const;

/** A root command's logging declaration (`new Command({ use, logging: {...} })`). */
export interface LoggingDecl {
  /**
   * Lowest level written to stderr. Default `info`; the environment variable `AX_LOG_LEVEL`
   * (one of {@link LOG_LEVELS} or `silent`) overrides it for one run.
   */
  level?: LogLevel;
  /**
   * Low-cardinality labels put on every line (`{env: 'prod', team: 'infra'}`), string values only.
   * Names of {@link RESERVED_LOG_FIELDS} are refused (TypeError).
   */
  labels?: Record<string, string>;
}

/** One logging method: `log.info('done')` or `log.info({ count: 3 }, 'fetched')`. */
export interface LogFn {
  (message: string): void;
  (fields: Record<string, unknown>, message?: string): void;
}

/**
 * The structured logger of a run (`ctx.logger`): JSON lines on stderr — never stdout — each with
 * `level`, `time` (ISO-8601), `program`, `version`, `command` (the command path), `trace_id`,
 * `span_id`, the root's labels, the fields given and `msg`; a readable `level: message key=value`
 * line in human mode. Under `mcp-server` every line also becomes a `notifications/message`
 * (filtered by the client's `logging/setLevel`, default info).
 */
export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  fatal: LogFn;
  /** A logger whose lines also carry `fields` (pino's child logger). */
  child(fields: Record<string, unknown>): Logger;
}

/** @throws TypeError when a logging declaration is malformed. */
export function checkLoggingDecl(cmd: string, decl: LoggingDecl | undefined): void {
  if (!decl) return;
  if (decl.level !== undefined && decl.level !== 'silent' && !(LOG_LEVELS as readonly string[]).includes(decl.level)) {
    throw new TypeError(
      `${cmd}: logging.level ${JSON.stringify(decl.level)} is not one of ${[...LOG_LEVELS, 'silent'].join(', ')}`,
    );
  }
  for (const [k, v] of Object.entries(decl.labels ?? {})) {
    if ((RESERVED_LOG_FIELDS as readonly string[]).includes(k))
      throw new TypeError(`${cmd}: logging label ${JSON.stringify(k)} is a field ax-ts sets on every line`);
    if (typeof v !== 'string') throw new TypeError(`${cmd}: logging label ${JSON.stringify(k)} must be a string`);
  }
}
