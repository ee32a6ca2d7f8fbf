/**
 * Flag declarations: the flag types, the value each holds, and the shape of a declaration
 * ({@link FlagSpec}). What a type means is its kind's (lib/tree/flag-kinds/); what a declared flag
 * is for a command is flags.ts's. Source: spf13/pflag.
 */
/**
 * Every flag type, in pflag's terms. `string`, `bool`, `int`, `uint`, `float`, `count` and `duration`
 * hold one value; `stringSlice`, `intSlice`, `uintSlice`, `boolSlice`, `floatSlice` and
 * `durationSlice` split each occurrence on commas (pflag's CSV reading) and accumulate, `stringArray`
 * never splits; `stringToString` / `stringToInt` read `key=value` pairs (comma-separated, repeatable,
 * as pflag) into an object; `json` takes one JSON object — beyond pflag, for object-valued options
 * that agents pass as structured data (inputSchema `type: object`). What each type means everywhere
 * (reading, help, schemas, write-back) is its kind's in lib/tree/flag-kinds/ (docs/architecture.md).
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
  'uintSlice',
  'boolSlice',
  'floatSlice',
  'durationSlice',
  'stringToString',
  'stringToInt',
  'json',
] as const;

/** A flag type; see {@link FLAG_TYPES}. */
export type FlagType = (typeof FLAG_TYPES)[number];

/**
 * The flag types a positional argument may have (`ArgSpec.type`; `string`, the first, when none is
 * given). Each is a kind of the same registry as the flags' (lib/tree/flag-kinds/), whose entry
 * for these types must also say how a command-line word is read as a positional.
 */
export const ARG_TYPES = ['string', 'int', 'float'] as const satisfies readonly FlagType[];

/** A positional argument's type; see {@link ARG_TYPES}. */
export type ArgType = (typeof ARG_TYPES)[number];

/**
 * Per flag type: the run-time value a handler gets (durations in milliseconds), and `zero: true`
 * where a flag always has a value — pflag's zero value (false, 0, [], {}) when it is neither given
 * nor defaulted. Indexed by {@link FlagType}, so a type missing here does not compile.
 */
interface FlagTypeValues {
  string: { value: string };
  bool: { value: boolean; zero: true };
  int: { value: number };
  uint: { value: number };
  float: { value: number };
  duration: { value: number };
  count: { value: number; zero: true };
  stringSlice: { value: string[]; zero: true };
  stringArray: { value: string[]; zero: true };
  intSlice: { value: number[]; zero: true };
  uintSlice: { value: number[]; zero: true };
  boolSlice: { value: boolean[]; zero: true };
  floatSlice: { value: number[]; zero: true };
  durationSlice: { value: number[]; zero: true };
  stringToString: { value: Record<string, string>; zero: true };
  stringToInt: { value: Record<string, number>; zero: true };
  json: { value: unknown };
}

/** The run-time value of a flag of type T: durations are milliseconds. */
export type FlagValueOf<T extends FlagType> = FlagTypeValues[T]['value'];

/** The flag types whose flags always have a value (their zero value when neither given nor defaulted). */
export type FlagTypeWithZero = {
  [T in FlagType]: FlagTypeValues[T] extends { zero: true } ? T : never;
}[FlagType];

/** What a {@link Completer} is told besides the partial word (Cobra passes `cmd, args, toComplete`). */
export interface CompletionContext {
  /** The positionals already given on the command line (Cobra's `args`; `[]` under MCP). */
  args: readonly string[];
  /** The path of the command being completed (`app deploy`). */
  commandPath: string;
  /**
   * The flags already on the line, typed as the handler would get them in `ctx.flags` (camelCase
   * keys; only those given; one that does not parse yet is left out). `{}` under MCP.
   */
  flags: Readonly<Record<string, unknown>>;
  /** The named positionals already on the line, as `ctx.args` has them (int/float ones as numbers). `{}` under MCP. */
  argValues: Readonly<Record<string, string | string[] | number | number[]>>;
  /**
   * The word being completed as the shell gave it, of which the partial is the value part:
   * `--tag=a,b` for the partial `b` of a comma-separated flag, `--name=x` for `x`; the partial itself
   * when they are the same (and under MCP).
   */
  word: string;
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
   * Value when the flag is not given. Without one: bool → false, count → 0, slices → [], maps → {},
   * everything else → undefined (unset, not a zero value, so handlers can tell "not given").
   * Durations may be given as a Go duration string (`'1m30s'`) or milliseconds.
   */
  default?: FlagValueOf<T> | (T extends 'duration' ? string : never);
  /**
   * Closed set of accepted values (string, stringSlice and stringArray flags): ax-go's flag enum,
   * the inputSchema's `enum`, clispec's `enum`, and the value name in help (`--color auto|never`).
   */
  choices?: readonly string[];
  /**
   * Example values, as an agent would send them (the inputSchema's spelling: `'30s'` for a
   * duration, a list for a slice): the inputSchema's `examples` (JSON Schema 2020-12), clispec's
   * `examples`, `__schema`, and help (`(e.g. 30s, 2m)`). Each is checked against the flag's type
   * when the command is built (a TypeError otherwise).
   */
  examples?: readonly unknown[];
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
  /**
   * The value is a secret (a token, a password): `string` flags only, with no `default`, `choices`,
   * `examples` or `noOptDefVal`. It never travels on the command line: it comes from {@link env},
   * {@link config}, a file (`--token @path`) or stdin (`--token -`); any other value given on argv
   * (or in an `--args-json` object, which is argv too) is refused with `validation_error`, reason
   * `secret_on_argv`, exit 2, the value echoed nowhere — unless {@link secretArgv}. Over MCP the
   * property is the value itself, marked `writeOnly` and `format: "password"` in the inputSchema.
   * Wherever ax-ts would show the value (error context, next steps' tool arguments, `--print-config`)
   * it shows `[redacted]` instead (docs/security.md#secret-flags).
   */
  secret?: boolean;
  /**
   * With {@link secret}: a value given on the command line is accepted as it is (still redacted in
   * every output). Only for programs whose users accept that argv is seen by `ps` and shell history.
   */
  secretArgv?: boolean;
}
