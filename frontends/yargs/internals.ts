/**
 * The parts of a yargs 18 program the front end reads that yargs' public API does not give: its
 * command registry, its option registry and its help-only parse (the one yargs' own `getHelp`
 * runs). Typed here, structurally, since yargs 18 publishes no typings; stable within yargs 18
 * (`yargs` is an optional peer dependency `>=18 <19` of ax-ts).
 */

/** A yargs program as the front end takes it: what `yargs(args)…` returns (any typing of it). */
export interface YargsProgram {
  /** yargs' `parse()`: the program's own words, as given to the factory. */
  parse(): unknown;
  /** yargs' `parseAsync()`. */
  parseAsync(): Promise<unknown>;
}

/** One positional of a command string (`<url>`, `[tags..]`): its name and aliases, and whether it takes the rest. */
export interface YargsPositional {
  cmd: string[];
  variadic: boolean;
}

/** yargs' record of one command (`.command(…)` or a command module). */
export interface YargsHandler {
  /** The command string as written (`add <url> [tags..]`). */
  original: string;
  /** The description; `false` hides the command. */
  description: string | false;
  handler: (argv: Record<string, unknown>) => unknown;
  demanded: YargsPositional[];
  optional: YargsPositional[];
}

/** yargs' command registry (one per program, its maps swapped as commands are entered). */
export interface YargsCommandInstance {
  handlers: Record<string, YargsHandler>;
  aliasMap: Record<string, string>;
  defaultCommand?: YargsHandler;
  addHandler(...args: unknown[]): unknown;
  runDefaultBuilderOn(yargs: unknown): unknown;
  /** yargs' middleware registry: `globalMiddleware` is its list (coerce functions carry their `option`). */
  globalMiddleware: { globalMiddleware: { option?: string }[]; getMiddleware(): { option?: string }[] };
}

/** yargs' option registry (`getOptions()`): each hint as yargs-parser takes it. */
export interface YargsOptions {
  key: Record<string, unknown>;
  boolean: string[];
  string: string[];
  number: string[];
  array: string[];
  count: string[];
  alias: Record<string, string[]>;
  default: Record<string, unknown>;
  choices: Record<string, unknown[]>;
  demandedOptions: Record<string, unknown>;
  demandedCommands: Record<string, { min: number } | undefined>;
  hiddenOptions: string[];
  envPrefix?: string;
}

/** yargs' usage registry: descriptions, the version. */
export interface YargsUsage {
  getDescriptions(): Record<string, string | undefined>;
  showVersion(level: (version: unknown) => void): void;
}

/** A yargs instance as the front end drives it. */
export interface YargsInstance {
  $0: string;
  getOptions(): YargsOptions;
  getInternalMethods(): {
    getCommandInstance(): YargsCommandInstance;
    getUsageInstance(): YargsUsage;
    getParserConfiguration(): Record<string, unknown>;
    getContext(): { commands: string[] };
    runYargsParserAndExecuteCommands(
      args: string[],
      shortCircuit: undefined,
      calledFromCommand: undefined,
      commandIndex: number,
      helpOnly: boolean,
    ): unknown;
  };
  exitProcess(enabled: boolean): unknown;
  fail(fn: (msg: string | null | undefined, err: Error | null | undefined) => void): unknown;
  parseAsync(args: string[]): Promise<unknown>;
}

/**
 * The instance behind a program. @throws Error (code `ax_ts.not_yargs`) when it is not a yargs 18
 * instance.
 */
export function internalsOf(program: YargsProgram): YargsInstance {
  const y = (program ?? {}) as unknown as Partial<YargsInstance>;
  if (typeof y.getInternalMethods !== 'function' || typeof y.getOptions !== 'function')
    throw Object.assign(
      new Error('ax-ts/yargs: the factory must return a yargs 18 instance (what `yargs(args)` returns)'),
      { code: 'ax_ts.not_yargs' },
    );
  return y as YargsInstance;
}

/** The names and aliases of a program's root commands. */
export function rootCommands(y: YargsInstance): Set<string> {
  const ci = y.getInternalMethods().getCommandInstance();
  return new Set([...Object.keys(ci.handlers), ...Object.keys(ci.aliasMap)]);
}

/** The name of a program: yargs' `$0` (`scriptName`, else the script's path) as a command name. */
export function programName($0: string): string {
  const script = $0.trim().split(/\s+/)[0] ?? '';
  return (script.split(/[\\/]/).pop() ?? script).replace(/\.[cm]?[jt]s$/, '') || 'program';
}

/**
 * Every handler the program registers, wrapped to tell when it starts and what it returns: those of
 * the root now, those a builder registers when its command is entered (yargs keeps one command
 * registry per program, whose `addHandler` is wrapped for this build only).
 */
export function watchHandlers(y: YargsInstance, started: () => void, returned: (r: unknown) => void): void {
  const ci = y.getInternalMethods().getCommandInstance();
  const wrapped = new WeakSet<object>();
  const wrapAll = () => {
    for (const h of Object.values(ci.handlers)) {
      if (wrapped.has(h.handler)) continue;
      const own = h.handler;
      h.handler = (argv) => {
        started();
        const r = own(argv);
        returned(r);
        return r;
      };
      wrapped.add(h.handler);
    }
  };
  wrapAll();
  const add = ci.addHandler.bind(ci);
  ci.addHandler = (...a: unknown[]) => {
    const r = add(...a);
    wrapAll();
    return r;
  };
}
