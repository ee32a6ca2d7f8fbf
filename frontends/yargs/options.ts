/**
 * yargs options and positionals as ax-ts flags and arguments, and back: the words that give yargs
 * each value again (docs/frontends.md#what-maps-yargs). One mapping both ways, so what the
 * inputSchema promises is what yargs is given.
 */
import type { ArgSpec, FlagSpec, FlagType } from '../../lib/index.ts';
import type { YargsHandler } from './internals.ts';
import type { YargsLevel } from './introspect.ts';

/** A name ax-ts can carry as a flag or argument name (yargs takes any key, dotted ones included). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** One yargs option as an ax-ts flag: its key (also the flag's name), its type and declaration. */
export interface MappedOption {
  /** yargs' key, the flag's name. */
  key: string;
  type: FlagType;
  spec: FlagSpec;
}

/** The positionals of a command string, in the order yargs fills them (required ones first). */
function positionalsOf(handler: YargsHandler | undefined) {
  if (!handler) return [];
  return [
    ...handler.demanded.map((p) => ({ ...p, required: true })),
    ...handler.optional.map((p) => ({ ...p, required: false })),
  ];
}

/** A yargs key's value type: `count`, `bool`, a list, `float` or `string`. */
function typeOf(level: YargsLevel, key: string): FlagType {
  const o = level.options;
  const is = (list: string[]) => list.includes(key);
  if (is(o.count)) return 'count';
  if (is(o.array)) return is(o.number) ? 'floatSlice' : 'stringArray';
  if (is(o.boolean)) return 'bool';
  if (is(o.number)) return 'float';
  return 'string';
}

/** yargs' default for a key, when ax-ts can show it for that type (others yargs applies unseen). */
function defaultFor(type: FlagType, value: unknown): FlagSpec['default'] | undefined {
  const fits =
    (type === 'string' && typeof value === 'string') ||
    ((type === 'float' || type === 'count') && typeof value === 'number' && Number.isFinite(value)) ||
    (type === 'bool' && typeof value === 'boolean') ||
    (type === 'stringArray' && Array.isArray(value) && value.every((v) => typeof v === 'string'));
  return fits ? (value as FlagSpec['default']) : undefined;
}

/** The option's description, with what the schema cannot say about it. */
function usageOf(level: YargsLevel, key: string): string {
  const o = level.options;
  const env = o.envPrefix !== undefined ? envName(o.envPrefix, key) : undefined;
  const notes = [
    level.coerced.has(key) ? "converted by the program's coerce function, which the schema cannot describe" : '',
    env ? `env: ${env}` : '',
    env && key in o.demandedOptions && !(key in o.default) ? `required unless ${env} is set` : '',
  ].filter(Boolean);
  const text = level.descriptions[key] ?? '';
  return notes.length ? `${text}${text ? ' ' : ''}(${notes.join('; ')})` : text;
}

/** The variable yargs reads a key from under `.env(prefix)`: `BM_MAX_SIZE` for `max-size`. */
function envName(prefix: string, key: string): string {
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_');
  return `${prefix ? `${prefix}_` : ''}${snake}`.toUpperCase();
}

/**
 * The options of a command as ax-ts flags: every key yargs knows there but the positionals, aliases,
 * `--help` and `--version` (ax-ts answers those itself), and keys ax-ts cannot name.
 */
export function optionsAt(level: YargsLevel, handler: YargsHandler | undefined): MappedOption[] {
  const o = level.options;
  const positional = new Set(positionalsOf(handler).flatMap((p) => p.cmd));
  const aliasOf = new Set(Object.values(o.alias).flat());
  const keys = new Set([
    ...Object.keys(o.key),
    ...Object.keys(o.default),
    ...Object.keys(o.demandedOptions),
    ...Object.keys(o.choices),
  ]);
  const mapped: MappedOption[] = [];
  for (const key of keys) {
    if (key === 'help' || key === 'version' || positional.has(key) || aliasOf.has(key) || !NAME.test(key)) continue;
    let type = typeOf(level, key);
    const choices = o.choices[key]?.map(String);
    if (choices && type === 'float') type = 'string';
    if (choices && type === 'floatSlice') type = 'stringArray';
    const letter = (o.alias[key] ?? []).find((a) => a.length === 1 && a !== 'h');
    const fallback = defaultFor(type, o.default[key]);
    const spec = {
      type,
      usage: usageOf(level, key),
      ...(letter ? { short: letter } : {}),
      ...(o.hiddenOptions.includes(key) ? { hidden: true } : {}),
      ...(choices && (type === 'string' || type === 'stringArray') ? { choices } : {}),
      ...(fallback !== undefined ? { default: fallback } : {}),
      ...(key in o.demandedOptions && !(key in o.default) && o.envPrefix === undefined ? { required: true } : {}),
      ...(type === 'bool' && level.negation ? { negatable: true } : {}),
    } as FlagSpec;
    mapped.push({ key, type, spec });
  }
  return mapped;
}

/** The positionals of a command as ax-ts arguments (typed and described by the builder's `.positional()`). */
export function argumentsAt(level: YargsLevel, handler: YargsHandler | undefined): ArgSpec[] {
  return positionalsOf(handler)
    .filter((p) => NAME.test(p.cmd[0]!))
    .map((p) => {
      const name = p.cmd[0]!;
      const choices = level.options.choices[name]?.map(String);
      const number = level.options.number.includes(name);
      const description = level.descriptions[name];
      return {
        name,
        required: p.required,
        ...(p.variadic ? { variadic: true } : {}),
        ...(description ? { description } : {}),
        ...(choices ? { choices } : number ? { type: 'float' as const } : {}),
      };
    });
}

/** The words that give an option its value again, as yargs reads them (`--key=value`, `--key` per count). */
export function optionWords(m: MappedOption, value: unknown): string[] {
  const flag = `--${m.key}`;
  if (m.type === 'bool') return [value === false ? `${flag}=false` : flag];
  if (m.type === 'count') return Array.from({ length: Number(value) || 0 }, () => flag);
  return (Array.isArray(value) ? value : [value]).map((v) => `${flag}=${String(v)}`);
}
