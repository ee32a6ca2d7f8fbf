/**
 * Flag declarations with pflag semantics: the types, their zero values and defaults, which take a
 * value or repeat, property names, and the checks of a declaration. Reading and checking values is
 * flag-values.ts's; Go's text forms are flag-text.ts's. Source: spf13/pflag; SPEC §1.
 */
import { parseDuration } from './flag-text.ts';

/**
 * Every flag type, in pflag's terms. `string`, `bool`, `int`, `uint`, `float`, `count` and `duration`
 * hold one value; `stringSlice`, `intSlice`, `boolSlice`, `floatSlice` and `durationSlice` split each
 * occurrence on commas (pflag's CSV reading) and accumulate, `stringArray` never splits;
 * `stringToString` / `stringToInt` read `key=value` pairs (comma-separated, repeatable, as pflag) into
 * an object; `json` takes one JSON object — beyond pflag, for object-valued options that agents pass
 * as structured data (inputSchema `type: object`).
 */
export const FLAG_TYPES = [
  'string',
  'bool',
  'int',
  'uint',
  'float',
  'duration',
  'count',
  'stringSlice',
  'stringArray',
  'intSlice',
  'boolSlice',
  'floatSlice',
  'durationSlice',
  'stringToString',
  'stringToInt',
  'json',
] as const;

/** A flag type; see {@link FLAG_TYPES}. */
export type FlagType = (typeof FLAG_TYPES)[number];

/** The run-time value of a flag of type T: durations are milliseconds. */
export type FlagValueOf<T extends FlagType> = T extends 'bool'
  ? boolean
  : T extends 'int' | 'uint' | 'float' | 'count' | 'duration'
    ? number
    : T extends 'stringSlice' | 'stringArray'
      ? string[]
      : T extends 'intSlice' | 'floatSlice' | 'durationSlice'
        ? number[]
        : T extends 'boolSlice'
          ? boolean[]
          : T extends 'stringToString'
            ? Record<string, string>
            : T extends 'stringToInt'
              ? Record<string, number>
              : T extends 'json'
                ? unknown
                : string;

/** What a {@link Completer} is told besides the partial word (Cobra passes `cmd, args, toComplete`). */
export interface CompletionContext {
  /** The positionals already given on the command line (Cobra's `args`; `[]` under MCP). */
  args: readonly string[];
  /** The path of the command being completed (`app deploy`). */
  commandPath: string;
}

/**
 * Cobra's answer of a completion function: the candidates (`value` or `value\tdescription`) and a
 * ShellCompDirective bit set (`ShellCompDirective` of ax-ts's completion; default 0, Default). Taken
 * as given — not filtered by the partial (the function does that, as in Cobra).
 */
export interface CompletionReply {
  completions: string[];
  directive?: number;
}

/**
 * A completion callback for a flag's value, a positional, or a command's positionals
 * (`validArgsFunction`, Cobra's ValidArgsFunction). It gets the partial word and a
 * {@link CompletionContext}, and returns (or resolves to) either plain values — which ax-ts filters
 * by the partial, directive NoFileComp — or a {@link CompletionReply} (Cobra's `([]string,
 * ShellCompDirective)`), taken as given. Values may carry a description after a tab. A throw (or
 * anything else returned) makes shell completion answer `:1` and MCP `completion/complete` an error.
 */
export type Completer = (
  partial: string,
  ctx: CompletionContext,
) => string[] | CompletionReply | Promise<string[] | CompletionReply>;

/** Declaration of one flag. Its name is the key it is declared under (`'max-width'`). */
export interface FlagSpec<T extends FlagType = FlagType> {
  /** Value type; see {@link FlagType}. */
  type: T;
  /** One-character shorthand (`'n'` for `-n`). */
  short?: string;
  /**
   * One line of help text. As in pflag (UnquoteUsage), a word in back quotes names the value in the
   * help's flag line: `'dial \`timeout\`'` prints `--maxT timeout   dial timeout` (the quotes are
   * dropped there; schemas keep the text as written).
   */
  usage?: string;
  /**
   * Value when the flag is not given. Without one: bool → false, count → 0, slices → [],
   * everything else → undefined (unset, not a zero value, so handlers can tell "not given").
   * Durations may be given as a Go duration string (`'1m30s'`) or milliseconds.
   */
  default?: FlagValueOf<T> | (T extends 'duration' ? string : never);
  /** Closed set of accepted values (string, stringSlice and stringArray flags). */
  choices?: readonly string[];
  /** The flag must be given (Cobra's MarkFlagRequired). */
  required?: boolean;
  /** Left out of help and schemas, still accepted. */
  hidden?: boolean;
  /** Deprecation message; using the flag prints `Flag --x has been deprecated, <message>` on stderr. */
  deprecated?: string;
  /**
   * pflag's MarkShorthandDeprecated: the shorthand still works, but using it prints `Flag shorthand
   * -n has been deprecated, <message>` on stderr (and in `meta.warnings`), and help shows the flag
   * without it. Needs `short` (a TypeError otherwise).
   */
  shorthandDeprecated?: string;
  /**
   * pflag's NoOptDefVal: the text the flag takes when given without a value (`--color` alone means
   * `--color=<noOptDefVal>`). A value must then be attached (`--color=never`, `-c=never`): the next
   * word is never consumed, and in a shorthand group the letters that follow are other shorthands.
   * Not for bool/count flags (they already take no value).
   */
  noOptDefVal?: string;
  /** bool only: also accept `--no-<name>` to set false (beyond pflag). */
  negatable?: boolean;
  /** Dynamic completion of values (Cobra's RegisterFlagCompletionFunc); see {@link Completer}. */
  completer?: Completer;
  /**
   * Cobra's MarkFlagFilename: the value is a file name with one of these extensions (`['yaml',
   * 'yml']`, no dot): shell completion offers those files (directive FilterFileExt). An empty list
   * means any file, the default for string flags. Takes precedence over `completer`, as in Cobra.
   */
  fileExts?: string[];
  /**
   * Cobra's MarkFlagDirname: the value is a directory — `true` for any, a path for the
   * subdirectories of that directory only (Cobra's BashCompSubdirsInDir); directive FilterDirs.
   * Takes precedence over `completer`, as in Cobra.
   */
  dirname?: true | string;
  /**
   * `false` keeps the flag out of every MCP tool's inputSchema and of `--args-json` (a call that sends
   * it gets the unknown-property error; the handler does not run) — for flags only the person at the
   * terminal may set, such as which file a program reads. It stays in help and in `__schema --as=ax`
   * (marked `"mcp": false`), and may be given on the command line beside `--args-json`. Default true.
   * A required flag cannot be `mcp: false` (the tool could never be called).
   */
  mcp?: boolean;
  /**
   * `json` flags only: a JSON Schema (2020-12) of the value. It becomes the MCP property's schema
   * (agents send the value itself, any JSON type the schema allows), and every path — argv,
   * `--args-json`, MCP — checks the value against it. Without one, the property is a string holding
   * JSON text of an object (the one spelling every model provider's converter keeps usable); see
   * docs/schema.md. Keep it in the portable subset: typed nodes, `items` on arrays, objects with
   * `properties`, all of them `required` and `additionalProperties: false` if strict clients should keep it.
   */
  schema?: Record<string, unknown>;
  /**
   * Environment variable that supplies the value when the flag is not given (`'TASKS_LIMIT'`),
   * read as flag text (`true`/`false`, comma lists for slices, `1m30s` for durations); an empty
   * variable counts as unset. Order: flag > env > config > default.
   */
  env?: string;
  /**
   * Key in the program's config file (the root's `config.file`) that supplies the value when neither
   * the flag nor {@link env} does: a dotted path (`'server.port'`), the value typed as JSON.
   */
  config?: string;
}

/** A flag as seen by one command: its declaration, name and where it comes from. */
export interface Flag {
  /** Long name without dashes. */
  name: string;
  spec: FlagSpec;
  /** Declared as a persistent flag (inherited by descendants). */
  persistent: boolean;
  /** Inherited from an ancestor (or injected on the root) rather than declared on this command. */
  inherited: boolean;
  /** Injected by ax-ts (`--format`, `--dry-run`, `--idempotency-key`, `--help`, `--version`). */
  builtin: boolean;
  /**
   * Set on an ancestor's local flag that a command reads under Cobra's TraverseChildren (see
   * `traversedFlags`): the path of the command that declares it (`root`, `root sub`). On the command
   * line it is given between that command's word and the next command's.
   */
  traversedFrom?: string;
}

/** Whether a flag consumes a value (`--name value`); bool, count and flags with a `noOptDefVal` do not. */
export function takesValue(spec: FlagSpec): boolean {
  return spec.type !== 'bool' && spec.type !== 'count' && spec.noOptDefVal === undefined;
}

const LISTS = new Set<FlagType>(['stringSlice', 'stringArray', 'intSlice', 'boolSlice', 'floatSlice', 'durationSlice']);
const MAPS = new Set<FlagType>(['stringToString', 'stringToInt']);

/** Whether a flag's value is an array (the slice types and stringArray). */
export function isList(spec: FlagSpec): boolean {
  return LISTS.has(spec.type);
}

/** Whether a flag's value is a `key=value` map (stringToString, stringToInt). */
export function isMap(spec: FlagSpec): boolean {
  return MAPS.has(spec.type);
}

/** Whether a flag may be given several times and accumulates. */
export function isRepeatable(spec: FlagSpec): boolean {
  return isList(spec) || isMap(spec) || spec.type === 'count';
}

/** The value a flag has when it is not given: its default, else the type's zero value or undefined. */
export function defaultValue(spec: FlagSpec): unknown {
  if (spec.default !== undefined) {
    if (spec.type === 'duration' && typeof spec.default === 'string') return parseDuration(spec.default);
    // A fresh copy per run (arrays and json objects), so a handler that mutates its value cannot
    // change the default seen by later or concurrent runs of the same tree.
    return typeof spec.default === 'object' && spec.default !== null ? structuredClone(spec.default) : spec.default;
  }
  if (spec.type === 'bool') return false;
  if (spec.type === 'count') return 0;
  if (isList(spec)) return [];
  if (isMap(spec)) return {};
  return undefined;
}

/** Converts a kebab-case name to camelCase (`max-width` → `maxWidth`), the key handlers read. */
export function camelCase(name: string): string {
  let c = camelMemo.get(name);
  if (c === undefined) {
    c = name.replace(/[-_]+([a-zA-Z0-9])/g, (_, ch: string) => ch.toUpperCase());
    if (camelMemo.size < 10_000) camelMemo.set(name, c); // flag and argument names: a small, fixed set
  }
  return c;
}
/** camelCase results: every run and every MCP call converts the same declared names again. */
const camelMemo = new Map<string, string>();

/** Converts a flag or argument name to the snake_case MCP property name (`max-width` → `max_width`). */
export function propertyName(name: string): string {
  return name.replace(/-/g, '_');
}

/** @throws TypeError when a flag declaration is malformed (an unknown `type` names the accepted ones). */
export function checkFlagDecl(cmd: string, name: string, spec: FlagSpec): void {
  if (!(FLAG_TYPES as readonly string[]).includes(spec?.type)) {
    throw new TypeError(
      `${cmd}: flag --${name} has unknown type ${JSON.stringify(spec?.type)}; accepted types: ${FLAG_TYPES.join(', ')}`,
    );
  }
  if (
    spec.noOptDefVal !== undefined &&
    (spec.type === 'bool' || spec.type === 'count' || typeof spec.noOptDefVal !== 'string')
  ) {
    throw new TypeError(
      `${cmd}: noOptDefVal of --${name} must be a string, and bool/count flags take none (they already need no value)`,
    );
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
    throw new TypeError(`${cmd}: flag name ${JSON.stringify(name)} must match ^[A-Za-z0-9][A-Za-z0-9_-]*$`);
  if (spec.short !== undefined && !/^[A-Za-z0-9]$/.test(spec.short))
    throw new TypeError(`${cmd}: shorthand of --${name} must be one letter or digit`);
  if (
    spec.shorthandDeprecated !== undefined &&
    (spec.short === undefined || typeof spec.shorthandDeprecated !== 'string' || spec.shorthandDeprecated === '')
  ) {
    throw new TypeError(
      `${cmd}: shorthandDeprecated of --${name} must be a non-empty message, and the flag needs a short to deprecate`,
    );
  }
  if ((spec.fileExts !== undefined || spec.dirname !== undefined) && !takesValue(spec))
    throw new TypeError(`${cmd}: fileExts and dirname are for flags that take a value (--${name} is ${spec.type})`);
  if (
    spec.fileExts !== undefined &&
    (!Array.isArray(spec.fileExts) || spec.fileExts.some((e) => typeof e !== 'string' || e === '' || /[\s/]/.test(e)))
  ) {
    throw new TypeError(
      `${cmd}: fileExts of --${name} must be an array of extensions without dots or spaces, e.g. ['yaml', 'yml']`,
    );
  }
  if (spec.dirname !== undefined && spec.dirname !== true && (typeof spec.dirname !== 'string' || spec.dirname === ''))
    throw new TypeError(`${cmd}: dirname of --${name} must be true or a directory path`);
  if (spec.negatable && spec.type !== 'bool')
    throw new TypeError(`${cmd}: only bool flags are negatable (--${name} is ${spec.type})`);
  if (spec.choices && !['string', 'stringSlice', 'stringArray'].includes(spec.type)) {
    throw new TypeError(`${cmd}: choices are for string flags (--${name} is ${spec.type})`);
  }
  if (spec.env !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(spec.env))
    throw new TypeError(`${cmd}: env of --${name} must be an environment variable name ([A-Za-z_][A-Za-z0-9_]*)`);
  if (spec.config !== undefined && !/^[^.\s]+(\.[^.\s]+)*$/.test(spec.config))
    throw new TypeError(`${cmd}: config of --${name} must be a dotted key such as "server.port"`);
  if (
    spec.choices &&
    spec.default !== undefined &&
    typeof spec.default === 'string' &&
    !spec.choices.includes(spec.default)
  ) {
    throw new TypeError(`${cmd}: default ${JSON.stringify(spec.default)} of --${name} is not one of its choices`);
  }
  if (spec.mcp !== undefined && typeof spec.mcp !== 'boolean')
    throw new TypeError(`${cmd}: mcp of --${name} must be a boolean`);
  if (spec.mcp === false && spec.required)
    throw new TypeError(`${cmd}: --${name} is required, so it cannot be mcp: false (the tool could never be called)`);
  if (spec.schema !== undefined) {
    if (spec.type !== 'json') throw new TypeError(`${cmd}: only json flags take a schema (--${name} is ${spec.type})`);
    if (spec.schema === null || typeof spec.schema !== 'object' || Array.isArray(spec.schema))
      throw new TypeError(`${cmd}: schema of --${name} must be a JSON Schema object`);
  }
}
