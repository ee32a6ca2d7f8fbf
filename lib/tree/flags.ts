/**
 * Flags as a command sees them, with pflag semantics: which take a value or repeat, their defaults,
 * property names, and the checks of a declaration. The declaration types are flag-spec.ts's; what
 * each flag type means is its kind's (flag-kinds/); reading and checking values is flag-values.ts's.
 * Source: spf13/pflag.
 */
import type { FlagSpec } from './flag-spec.ts';
import { kindOf } from './flag-kinds/index.ts';
import { FLAG_TYPES } from './flag-spec.ts';

export {
  FLAG_TYPES,
  type FlagSpec,
  type FlagType,
  type FlagValueOf,
  type FlagTypeWithZero,
  type Completer,
  type CompletionContext,
  type CompletionReply,
} from './flag-spec.ts';

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
  return kindOf(spec).takesValue && spec.noOptDefVal === undefined;
}

/** Whether a flag's value is an array (the slice types and stringArray). */
export function isList(spec: FlagSpec): boolean {
  return kindOf(spec).repeat === 'append';
}

/** Whether a flag's value is a `key=value` map (stringToString, stringToInt). */
export function isMap(spec: FlagSpec): boolean {
  return kindOf(spec).repeat === 'merge';
}

/** Whether a flag may be given several times and accumulates. */
export function isRepeatable(spec: FlagSpec): boolean {
  return kindOf(spec).repeat !== 'replace';
}

/**
 * Whether a flag is the help flag: named `help` and a boolFlag — the injected `--help`, or an
 * author's own bool `help` flag, which Cobra treats as the help flag too.
 */
export function isHelpFlag(f: Flag | undefined): boolean {
  return f?.name === 'help' && kindOf(f.spec).boolFlag;
}

/**
 * The value a flag has when it is not given: its default (a fresh copy per run, so a handler that
 * mutates its value cannot change the default seen by later or concurrent runs of the same tree),
 * else the type's zero value or undefined.
 */
export function defaultValue(spec: FlagSpec): unknown {
  const kind = kindOf(spec);
  return spec.default !== undefined ? kind.fromDefault(spec.default) : kind.zero();
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
  const kind = kindOf(spec);
  if (spec.noOptDefVal !== undefined && (!kind.takesValue || typeof spec.noOptDefVal !== 'string')) {
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
  if (spec.negatable && !kind.boolFlag)
    throw new TypeError(`${cmd}: only bool flags are negatable (--${name} is ${spec.type})`);
  if (spec.choices && !kind.choices) {
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
    if (!kind.declaresSchema) throw new TypeError(`${cmd}: only json flags take a schema (--${name} is ${spec.type})`);
    if (spec.schema === null || typeof spec.schema !== 'object' || Array.isArray(spec.schema))
      throw new TypeError(`${cmd}: schema of --${name} must be a JSON Schema object`);
  }
  if (spec.examples !== undefined) {
    if (!Array.isArray(spec.examples) || spec.examples.length === 0)
      throw new TypeError(`${cmd}: examples of --${name} must be a non-empty list of values`);
    for (const x of spec.examples) {
      try {
        kind.fromJson(spec, x, (expected) => new TypeError(expected) as never);
        if (spec.choices && (Array.isArray(x) ? x : [x]).some((v) => !spec.choices!.includes(v as string)))
          throw new TypeError(`one of ${spec.choices.join(', ')}`);
      } catch (e) {
        throw new TypeError(
          `${cmd}: example ${JSON.stringify(x)} of --${name} is not ` +
            `a value of the flag (expected ${(e as Error).message})`,
          { cause: e },
        );
      }
    }
  }
}

/** @throws TypeError when a `secret` declaration is malformed (docs/security.md#secret-flags). */
export function checkSecretDecl(cmd: string, name: string, spec: FlagSpec): void {
  if (spec.secret !== undefined && typeof spec.secret !== 'boolean')
    throw new TypeError(`${cmd}: secret of --${name} must be a boolean`);
  if (spec.secretArgv !== undefined && (typeof spec.secretArgv !== 'boolean' || spec.secret !== true))
    throw new TypeError(`${cmd}: secretArgv of --${name} must be a boolean, on a flag declared secret: true`);
  if (spec.secret !== true) return;
  if (spec.type !== 'string')
    throw new TypeError(`${cmd}: only string flags may be secret (--${name} is ${spec.type})`);
  const shown = (['default', 'choices', 'examples', 'noOptDefVal'] as const).filter((k) => spec[k] !== undefined);
  if (shown.length)
    throw new TypeError(
      `${cmd}: secret flag --${name} cannot declare ${shown.join(', ')}: ` +
        'a value written into the program is no secret, and help and schemas would show it',
    );
}
