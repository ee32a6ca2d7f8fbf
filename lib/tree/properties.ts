/**
 * The MCP/JSON view of a command's inputs: which flags and positionals become inputSchema
 * properties, under which snake_case names. Shared by the schema walk, `tools/call` and
 * `--args-json`, so the advertised names and the accepted names can never differ. docs/mcp-server.md#inputschema.
 */
import type { Command } from './command.ts';
import type { Flag } from './flags.ts';
import { validationError } from '../contract/errors.ts';
import { isHelpFlag, propertyName } from './flags.ts';
import { flagsOf, replays, traversedFlags } from './flagset.ts';
import { resolvedView, type ToolProperty } from './resolved.ts';

export type { ToolProperty } from './resolved.ts';

/**
 * Built-in flags that are not tool inputs: help/version are for people, format is forced to json,
 * and `--strict` and `--timeout` are the caller's controls of one process run (over MCP the client
 * sees the warnings in the result, and times and cancels its own request: docs/mcp-server.md).
 */
const NOT_INPUTS = new Set(['help', 'version', 'format', 'args-json', 'explain', 'strict', 'timeout']);

/**
 * Whether the injected `--yes` is an input (`yes`) of a command: only where the command declares
 * it as its confirmation gate (`confirmationFlag: 'yes'`). Elsewhere an MCP client confirms through
 * elicitation, and a model is not offered a `yes` to set on every tool that changes something.
 */
export function yesIsInput(cmd: Command): boolean {
  return cmd.runnable() && cmd.confirmationFlag === 'yes';
}

/**
 * The properties of a command's inputSchema: declared positionals in order, then visible flags not
 * declared `mcp: false` (own local and persistent first, then inherited, then — under Cobra's
 * TraverseChildren — the ancestors' local flags the command reads, each sorted by name). A
 * command's own `--format` (which
 * shadows the global one) is an input; the injected one is not. The injected `--idempotency-key` is
 * an input (`idempotency_key`) only on a command that replays ({@link replays}).
 * @throws AxError `validation_error` (exit 2, reason `property_collision`) when two inputs map to the
 *   same property name (e.g. `--max-width` and `--max_width`, or a flag and a positional of one
 *   name, or a positional named as an injected input such as `fields`), naming both — an author
 *   error, refused like a tool-name collision.
 */
export function toolProperties(cmd: Command): ToolProperty[] {
  const view = resolvedView(cmd);
  if (view.properties) return view.properties;
  const out: ToolProperty[] = [];
  const seen = new Map<string, string>();
  const claim = (prop: string, what: string, injected = false) => {
    const prior = seen.get(prop);
    if (prior) {
      throw validationError(
        `${cmd.commandPath()}: ${prior} and ${what} both map to the input property ${JSON.stringify(prop)}`,
        'property_collision',
        {
          context: { command: cmd.commandPath(), property: prop, inputs: [prior, what] },
          fix: injected
            ? `Rename ${prior}: ${JSON.stringify(prop)} is the input property of ${what}, which ax-ts injects.`
            : `Rename ${prior} or ${what}: names that differ only in ` +
              `"-" versus "_" become the same snake_case property.`,
        },
      );
    }
    seen.set(prop, what);
  };
  cmd.args.forEach((arg, argIndex) => {
    const property = propertyName(arg.name);
    claim(property, `argument <${arg.name}>`);
    out.push({ property, arg, argIndex });
  });
  // hidden flags and flags declared `mcp: false` are no tool inputs
  // (docs/mcp-server.md#inputschema); nor is an author's own
  // bool `help` flag: it is the help flag (Cobra), no more an input than the injected one;
  // `idempotency_key` only where a retry with it replays: elsewhere the key would only be echoed;
  // and the injected `yes` only where the command declares it as its confirmation gate
  const keyIsInput = replays(cmd);
  // a command with disableFlagParsing takes no flags from the command line, so none is an input either
  // under TraverseChildren the ancestors' local flags the command reads are inputs too (after the
  // inherited ones): over MCP no word has a place, so "before the child's word" has no equivalent
  const own: Flag[] = [];
  const inherited: Flag[] = [];
  const traversed: Flag[] = [];
  const yesInput = yesIsInput(cmd);
  // the injected `fields` where there is data to select from: a runnable command whose output is not
  // opaque (a positional of that name collides with it, as with any injected input)
  const selects = cmd.runnable() && cmd.output?.kind !== 'opaque';
  const isInput = (f: Flag) =>
    !f.spec.hidden &&
    f.spec.mcp !== false &&
    !(
      f.builtin &&
      (NOT_INPUTS.has(f.name) ||
        (f.name === 'idempotency-key' && !keyIsInput) ||
        (f.name === 'yes' && !yesInput) ||
        (f.name === 'fields' && !selects))
    ) &&
    !isHelpFlag(f);
  if (!cmd.disableFlagParsing) {
    for (const f of flagsOf(cmd).values()) if (isInput(f)) (f.inherited ? inherited : own).push(f);
    for (const f of traversedFlags(cmd).values()) if (isInput(f)) traversed.push(f);
  }
  const byName = (a: Flag, b: Flag) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const f of [...own.sort(byName), ...inherited.sort(byName), ...traversed.sort(byName)]) {
    const property = propertyName(f.name);
    claim(property, `flag --${f.name}`, f.builtin);
    out.push({ property, flag: f });
  }
  view.properties = out;
  return out;
}

/**
 * {@link toolProperties} keyed by property name, cached with them (every MCP call and `--args-json`
 * run binds its values through it). @throws as toolProperties.
 */
export function toolPropertyIndex(cmd: Command): ReadonlyMap<string, ToolProperty> {
  const view = resolvedView(cmd);
  return (view.propertyIndex ??= new Map(toolProperties(cmd).map((p) => [p.property, p])));
}

/**
 * Rewrites the CLI spelling of a command's flags in a text into the MCP vocabulary, for text an
 * agent reads over MCP (tool and property descriptions): `--max-width` → `max_width`,
 * `--no-cache` (a negatable bool) → `cache: false`, for every flag that is a property of this
 * command's inputSchema. Other text — and flags that are no property, such as `--help` or one
 * declared `mcp: false` — stays as written.
 */
export function mcpVocabulary(cmd: Command, text: string): string {
  if (!text.includes('--')) return text;
  const view = resolvedView(cmd);
  let props = view.vocabulary;
  if (!props) {
    const byFlag = new Map<string, ToolProperty>();
    for (const p of toolProperties(cmd)) if (p.flag) byFlag.set(p.flag.name, p);
    props = view.vocabulary = byFlag;
  }
  return text.replace(
    /(^|[^\w-])--(no-)?([A-Za-z0-9][A-Za-z0-9_-]*)/g,
    (whole, pre: string, no: string | undefined, name: string) => {
      if (no) {
        const literal = props.get(`no-${name}`);
        if (literal) return `${pre}${literal.property}`;
        const negated = props.get(name);
        if (negated?.flag?.spec.negatable) return `${pre}${negated.property}: false`;
        return whole;
      }
      const p = props.get(name);
      return p ? `${pre}${p.property}` : whole;
    },
  );
}
