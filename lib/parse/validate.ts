/**
 * Checks that run after parsing and before a handler, in Cobra's order: positional arguments (Args
 * validator), required flags, flag groups. Also binds structured values (MCP arguments,
 * `--args-json`) to an invocation without any text parsing. Source: cobra command.go
 * (ValidateArgs, ValidateRequiredFlags, ValidateFlagGroups), flag_groups.go; docs/mcp-server.md#inputschema.
 */
import type { Command } from '../tree/command.ts';
import { resolvedView, type ResolvedFlags } from '../tree/resolved.ts';
import { validationError, type AxError } from '../contract/errors.ts';
import { camelCase, defaultValue, type Flag } from '../tree/flags.ts';
import { checkFlagValue } from '../tree/flag-values.ts';
import { flagsOf, refusesDryRun, resolvedFlags, traversedFlags } from '../tree/flagset.ts';
import { dryRunUnsupported } from '../tree/dry-run.ts';
import type { Invocation } from './parse.ts';
import { toolProperties, toolPropertyIndex } from '../tree/properties.ts';
import { argJsonOk, argValue, type ArgSpec } from '../tree/args.ts';
import { argKindOf } from '../tree/flag-kinds/index.ts';
import { suggestionsFor } from '../tree/suggest.ts';

/**
 * The injected flags that control one process run and are no tool inputs: beside an `--args-json`
 * object they stay flags.
 */
const RUN_CONTROLS = new Set(['format', 'explain', 'strict', 'timeout']);

/**
 * How a flag is named in messages of this invocation: `--max-width` on the CLI, `max_width` under
 * MCP and in an `--args-json` object — except the run's own controls (`--strict`, `--timeout`,
 * `--format`), which an `--args-json` caller gives as flags beside the object (docs/contract.md).
 */
export function flagLabel(inv: Invocation, flagName: string): string {
  if (inv.source !== 'values') return `--${flagName}`;
  if (inv.argsJson && RUN_CONTROLS.has(flagName) && inv.resolved.inForce(flagName)) return `--${flagName}`;
  return flagName.replace(/-/g, '_');
}

function list(labels: string[]): string {
  return labels.length <= 2
    ? labels.join(' and ')
    : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * Runs the Args validator, then required-flag and flag-group checks.
 * @throws AxError `validation_error` with `context.reason` `missing_argument`, `too_many_arguments`,
 *   `invalid_argument`, `unknown_command`, `missing_required_flag`, `mutually_exclusive`,
 *   `required_together` or `one_required`.
 */
export function validateInvocation(inv: Invocation): void {
  validatePositionals(inv);
  validateFlags(inv);
}

/** Runs the command's Args validator on the positionals (Cobra's ValidateArgs). @throws AxError `validation_error`. */
export function validatePositionals(inv: Invocation): void {
  const cmd = inv.command;
  cmd.validateArgs({ commandPath: cmd.commandPath(), validArgs: cmd.validArgs, args: cmd.args }, inv.positionals);
}

/**
 * Cobra's ValidateRequiredFlags then ValidateFlagGroups: required flags first (`required flag(s)
 * "a", "b" not set`, names sorted), then the flag groups in force for the command — its own and its
 * ancestors' groups whose flags are all in its flag set (Cobra annotates the flags, so groups of
 * persistent flags reach descendants) — checked in Cobra's order: required-together groups, then
 * one-required, then mutually exclusive, each kind in sorted order of the group's names, and the
 * first violation reported with Cobra's text. Under MCP/`--args-json` the same texts name properties.
 * @throws AxError `validation_error` with `context.reason` `missing_required_flag`,
 *   `required_together`, `one_required` or `mutually_exclusive`.
 */
export function validateFlags(inv: Invocation): void {
  const cmd = inv.command;
  // Cobra: a command with DisableFlagParsing has no required flags or flag groups to check
  if (cmd.disableFlagParsing) return;
  // a required flag is satisfied by its environment variable or config key too
  let missing: string[] | undefined;
  for (const n of requiredFlags(cmd)) if (!inv.values.has(n) && !inv.sourced?.has(n)) (missing ??= []).push(n);
  if (!missing && !groupsOnPath(cmd)) return; // the common case: nothing to check, nothing built
  const path = cmd.commandPath();
  const given = (n: string) => inv.values.has(n);
  const label = (n: string) => flagLabel(inv, n);
  const values = inv.source === 'values';
  if (missing) {
    missing.sort();
    const message = values
      ? `required propert${missing.length > 1 ? 'ies' : 'y'} ${list(missing.map(label))} not set`
      : `required flag(s) ${missing.map((n) => JSON.stringify(n)).join(', ')} not set`;
    throw validationError(message, 'missing_required_flag', {
      context: { command: path, flags: missing.map(label) },
      fix: `Give ${list(missing.map(label))}.`,
      usage: path,
    });
  }
  const what = values ? 'properties' : 'flags';
  const show = (names: string[]) => `[${names.map((n) => (values ? label(n) : n)).join(' ')}]`;
  for (const group of groupsInForce(cmd, 'requiredTogether')) {
    const absent = group.filter((n) => !given(n));
    if (absent.length > 0 && absent.length < group.length) {
      throw validationError(
        `if any ${what} in the group ${show(group)} are set they must all be set; missing ${show([...absent].sort())}`,
        'required_together',
        {
          context: { command: path, group: group.map(label), missing: absent.map(label) },
          fix: `Also give ${list(absent.map(label))}, or none of the group.`,
          usage: path,
        },
      );
    }
  }
  for (const group of groupsInForce(cmd, 'oneRequired')) {
    if (!group.some(given)) {
      throw validationError(`at least one of the ${what} in the group ${show(group)} is required`, 'one_required', {
        context: { command: path, group: group.map(label) },
        fix: `Give one of ${list(group.map(label))}.`,
        usage: path,
      });
    }
  }
  for (const group of groupsInForce(cmd, 'mutuallyExclusive')) {
    const set = group.filter(given);
    if (set.length > 1) {
      throw validationError(
        `if any ${what} in the group ${show(group)} are set none of ` +
          `the others can be; ${show([...set].sort())} were all set`,
        'mutually_exclusive',
        {
          context: { command: path, group: group.map(label), given: set.map(label) },
          fix: `Give only one of ${list(group.map(label))}.`,
          usage: path,
        },
      );
    }
  }
}

/** The names of `cmd`'s required flags, in its flag set's order (cached with it until the tree changes). */
function requiredFlags(cmd: Command): readonly string[] {
  const view = resolvedView(cmd);
  if (view.required) return view.required;
  const out: string[] = [];
  for (const f of flagsOf(cmd).values()) if (f.spec.required) out.push(f.name);
  return (view.required = out);
}

/** Whether `cmd` or an ancestor declares any flag group. */
function groupsOnPath(cmd: Command): boolean {
  for (let c: Command | undefined = cmd; c; c = c.parent)
    if (c.requiredTogether.length || c.oneRequired.length || c.mutuallyExclusive.length) return true;
  return false;
}

/** The groups of a kind in force where none is declared: one shared, frozen empty list. */
const NO_GROUPS: string[][] = Object.freeze([]) as unknown as string[][];

/**
 * The groups of one kind in force for `cmd`, deduplicated, sorted by their space-joined names
 * (Cobra's sortedKeys). Read-only: with none, the one shared empty list.
 */
export function groupsInForce(
  cmd: Command,
  kind: 'requiredTogether' | 'oneRequired' | 'mutuallyExclusive',
): string[][] {
  let declared = false; // the common case, no group of this kind on the path, builds nothing
  for (let c: Command | undefined = cmd; c && !declared; c = c.parent) declared = c[kind].length > 0;
  if (!declared) return NO_GROUPS;
  const flags = flagsOf(cmd);
  const byKey = new Map<string, string[]>();
  for (let c: Command | undefined = cmd; c; c = c.parent) {
    for (const g of c[kind]) if (g.every((n) => flags.has(n)) && !byKey.has(g.join(' '))) byKey.set(g.join(' '), g);
  }
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}

/**
 * The `validation_error` for a property the command does not advertise, pointing to the advertised
 * name (`maxWidth` → `max_width`) or the closest ones; `dry_run` asked of a command that offers no
 * dry run is `dry_run_unsupported` instead (lib/tree/dry-run.ts).
 */
export function unknownPropertyError(cmd: Command, key: string): AxError {
  if (key === 'dry_run' && refusesDryRun(cmd)) return dryRunUnsupported({ path: cmd.commandPath() }, 'values');
  const names = toolProperties(cmd).map((p) => p.property);
  const snake = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
  const suggestions = names.includes(snake) ? [snake] : suggestionsFor(key, names);
  return validationError(
    `unknown property ${JSON.stringify(key)}${suggestions.length ? ` (did you mean ${JSON.stringify(suggestions[0])}?)` : ''}`,
    'unknown_property',
    {
      suggestions,
      context: { property: key, command: cmd.commandPath(), accepted: names },
      fix: suggestions.length
        ? `Use the advertised property ${JSON.stringify(suggestions[0])}.`
        : `Use only the properties of the tool's inputSchema: ${names.join(', ') || '(none)'}.`,
    },
  );
}

/**
 * Builds an invocation from structured values keyed by inputSchema property (snake_case), exactly as
 * given: no argv is rebuilt, so a value that looks like a flag stays a value and arrays keep their
 * items. `null` or absent = not given.
 * @throws AxError `validation_error` for an unknown property (with the advertised name suggested),
 *   a value of the wrong type, or a positional given after a missing earlier one.
 */
export function bindValues(cmd: Command, input: Record<string, unknown>): Invocation {
  const inv: Invocation = {
    command: cmd,
    resolved: resolvedFlags(cmd),
    values: new Map(),
    positionals: [],
    warnings: [],
    source: 'values',
    arguments: input,
  };
  const byName = toolPropertyIndex(cmd);
  const argValues: (string | string[] | undefined)[] = [];
  for (const key of Object.keys(input)) {
    const value = input[key];
    if (value === null || value === undefined) continue;
    const p = byName.get(key);
    if (!p) throw unknownPropertyError(cmd, key);
    if (p.flag) {
      inv.values.set(p.flag.name, checkFlagValue(p.property, p.flag.spec, value));
      if (p.flag.spec.deprecated)
        inv.warnings.push({
          code: 'deprecated_flag',
          message: `Property ${p.property} (--${p.flag.name}) has been deprecated, ${p.flag.spec.deprecated}`,
        });
    } else if (p.arg) {
      const arg = p.arg;
      if (arg.variadic ? !Array.isArray(value) || !value.every((v) => argJsonOk(arg, v)) : !argJsonOk(arg, value))
        throw badArgValue(p.property, arg, Array.isArray(value) ? value.find((v) => !argJsonOk(arg, v)) : value);
      // positionals are text, as on the command line; argValues turns typed ones back into numbers
      argValues[p.argIndex!] = arg.variadic ? (value as unknown[]).map(String) : String(value);
    }
  }
  for (let i = 0; i < cmd.args.length; i++) {
    const decl = cmd.args[i]!;
    const v = argValues[i];
    const prop = decl.name.replace(/-/g, '_');
    const empty = v === undefined || (Array.isArray(v) && v.length === 0);
    if (empty && decl.required !== false) {
      throw validationError(
        `missing required property ${JSON.stringify(prop)} (argument <${decl.name}>)`,
        'missing_argument',
        {
          context: { property: prop, command: cmd.commandPath() },
          fix: `Give ${prop}${decl.variadic ? ' (an array with at least one item)' : ''}.`,
        },
      );
    }
    if (empty) {
      const later = argValues.slice(i + 1).some((x) => x !== undefined);
      if (later) {
        throw validationError(
          `property ${JSON.stringify(prop)} must be given when a later argument is`,
          'missing_argument',
          {
            context: { property: prop },
            fix: `Give ${prop} too, or leave out the later arguments.`,
          },
        );
      }
      continue;
    }
    if (Array.isArray(v)) inv.positionals.push(...v);
    else inv.positionals.push(v!);
  }
  return inv;
}

/** The `validation_error` (reason `invalid_argument`) for a positional given a value of the wrong type. */
function badArgValue(property: string, arg: ArgSpec, value: unknown): AxError {
  const p = argKindOf(arg).positional;
  // a whole number past ±2^53 is an integer JavaScript cannot hold exactly: say so, as flags do
  const range = typeof value === 'number' && p.pastRange(value) ? ' within ±2^53' : '';
  const kind = arg.variadic ? `an array of ${p.expectedItems}${range}` : `${p.expected}${range}`;
  return validationError(`invalid value for ${property}: expected ${kind}`, 'invalid_argument', {
    context: { property },
    fix: `Pass ${arg.variadic ? 'an array' : kind} as ${property}.`,
  });
}

/**
 * The `ctx.flags` object: every flag of the command (given or default), camelCase keys, and under
 * TraverseChildren the ancestors' local flags it reads (`traversedFlags`).
 * Hidden and built-in flags are included too, so handlers can read `--help`-free values uniformly.
 */
export function flagValues(inv: Invocation): Record<string, unknown> {
  const traversed = traversedFlags(inv.command);
  const start = flagsStart(inv.resolved, traversed);
  if (!start) {
    const out: Record<string, unknown> = {};
    for (const f of inv.resolved.all.values()) out[camelCase(f.name)] = flagValue(inv, f);
    // under TraverseChildren also the ancestors' local flags the command reads (none share a name with its own)
    if (traversed.size) for (const f of traversed.values()) out[camelCase(f.name)] = flagValue(inv, f);
    return out;
  }
  // the same object, from the command's start: its keys in the same order, then what this run gives
  const out = { ...start.template };
  const keys = start.keys;
  const sourced = inv.sourced;
  for (const f of start.fresh)
    if (!inv.values.has(f.name) && !sourced?.has(f.name)) out[keys.get(f.name)!] = defaultValue(f.spec);
  if (sourced) for (const [name, v] of sourced) if (keys.has(name)) out[keys.get(name)!] = v;
  for (const [name, v] of inv.values) if (keys.has(name)) out[keys.get(name)!] = v;
  return out;
}

/**
 * Where a command's `ctx.flags` starts from, built once per flag set (docs/performance.md): every key
 * in {@link flagValues}'s order with each default that is a plain value (a boolean, a string, a
 * number) in place, and the flags whose default is an object (a list, a map), made fresh for every
 * run so no run sees another's changes.
 */
interface FlagsStart {
  readonly template: Readonly<Record<string, unknown>>;
  readonly fresh: readonly Flag[];
  /** Each flag's key in the object, by long name. */
  readonly keys: ReadonlyMap<string, string>;
  /** The TraverseChildren flags it was built with (the plan is rebuilt when they change). */
  readonly traversed: ReadonlyMap<string, Flag>;
}

const starts = new WeakMap<ResolvedFlags, FlagsStart | null>();

/** The {@link FlagsStart} of a flag set, or null when two of its flags share a key (the loop decides then). */
function flagsStart(resolved: ResolvedFlags, traversed: ReadonlyMap<string, Flag>): FlagsStart | null {
  const known = starts.get(resolved);
  if (known !== undefined && (known === null || known.traversed === traversed)) return known;
  const template: Record<string, unknown> = {};
  const fresh: Flag[] = [];
  const keys = new Map<string, string>();
  const used = new Set<string>();
  let start: FlagsStart | null = { template, fresh, keys, traversed };
  for (const f of [...resolved.all.values(), ...traversed.values()]) {
    const key = camelCase(f.name);
    if (used.has(key) || keys.has(f.name)) {
      start = null;
      break;
    }
    used.add(key);
    keys.set(f.name, key);
    const d = defaultValue(f.spec);
    if (typeof d === 'object' && d !== null) {
      template[key] = undefined;
      fresh.push(f);
    } else template[key] = d;
  }
  starts.set(resolved, start);
  return start;
}

/** A flag's value in this invocation: given, else from its env var or config key, else its default. */
function flagValue(inv: Invocation, f: Flag): unknown {
  return inv.values.has(f.name)
    ? inv.values.get(f.name)
    : inv.sourced?.has(f.name)
      ? inv.sourced.get(f.name)
      : defaultValue(f.spec);
}

/** The `ctx.args` object: named positionals (camelCase keys; variadic → array; missing optional → undefined). */
export function argValues(inv: Invocation): Record<string, string | string[] | number | number[] | undefined> {
  const out: Record<string, string | string[] | number | number[] | undefined> = {};
  const decls = inv.command.args;
  for (let i = 0; i < decls.length; i++) {
    const d = decls[i]!;
    const given = inv.positionals[i];
    // typed arguments were checked when parsed
    out[camelCase(d.name)] = d.variadic
      ? (inv.positionals.slice(i).map((v) => argValue(d, v)) as string[] | number[])
      : given === undefined
        ? undefined
        : argValue(d, given);
  }
  return out;
}
