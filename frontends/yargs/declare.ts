/**
 * What an author declares about a yargs command for agents, beside yargs' own API: either on the
 * handler (`.command('add <url>', 'Add', builder, ax(handler, { effects: 'non_idempotent' }))`, or
 * `ax(commandModule, {…})`), or by command path in `withAx(factory, { commands: { 'link add': {…} } })`.
 * Kept off yargs' objects (a WeakMap), so a declaration changes nothing of the program's own
 * parsing, help or output (docs/frontends.md#yargs-programs).
 */
import type { CallsMode } from '../shared/call.ts';
import type { AxDeclarations } from '../shared/declare.ts';

const declared = new WeakMap<object, AxDeclarations>();

/** The options of `withAx` for a yargs program. */
export interface WithAxOptions {
  /**
   * Declarations by command path, the words after the program's name (`'link add'`; `'$0'`: the
   * program itself, for program-wide prompts and resources). A path the program does not have is
   * refused when ax-ts is asked (`validation_error`, reason `unknown_command`).
   */
  commands?: Readonly<Record<string, AxDeclarations>>;
  /**
   * How an agent's call (`mcp-server`) runs (docs/frontends.md#how-a-call-runs). `'child'` (the
   * default): each call runs the program's own entry in its own process — calls run concurrently, a
   * call's timeout or cancellation ends its process tree, late prints stay in their call.
   * `'in-process'`: in the server process, one call at a time, with the program's printed output
   * captured — for programs whose handlers are call-safe (no state kept between parses, no work left
   * running after the handler returns).
   */
  calls?: CallsMode;
}

/** A yargs command module (`{ command, describe, builder, handler }`), as far as {@link ax} reads it. */
export interface YargsCommandModule {
  handler?: (...args: never[]) => unknown;
}

/**
 * Records declarations for the command a handler (or a command module) belongs to, and returns it
 * unchanged: `ax(async (argv) => …, { effects: 'read_only' })`. Nothing is read until `__schema`,
 * `mcp-server` or a json-mode call asks. Declarations given twice for one command (here and in
 * `withAx`'s `commands`) are merged, `commands` winning field by field.
 * @returns the handler or module given.
 */
export function ax<H extends ((...args: never[]) => unknown) | YargsCommandModule>(
  handlerOrModule: H,
  declarations: AxDeclarations,
): H {
  const key = typeof handlerOrModule === 'function' ? handlerOrModule : handlerOrModule.handler;
  if (typeof key !== 'function')
    throw Object.assign(new Error('ax-ts/yargs: ax() takes a handler function or a command module with a handler'), {
      code: 'ax_ts.not_a_handler',
    });
  declared.set(key, { ...declared.get(key), ...declarations });
  return handlerOrModule;
}

/** The declarations recorded with {@link ax} for a handler (empty when none). */
export function declarationsOfHandler(handler: unknown): Readonly<AxDeclarations> {
  return (typeof handler === 'function' && declared.get(handler)) || {};
}
