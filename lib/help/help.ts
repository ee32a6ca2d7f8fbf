/**
 * Cobra-like help text: usage, aliases, examples, commands, arguments, flags and global flags.
 * Source: cobra's default usage template and pflag's FlagUsages.
 *
 * Layer `lib/help/`: the help text of a command, from the tree alone. It imports `lib/tree/` (and
 * layers below).
 */
import type { Command } from '../tree/command.ts';
import type { Flag } from '../tree/flags.ts';
import { argKindOf, kindOf } from '../tree/flag-kinds/index.ts';
import { visibleFlags } from '../tree/flagset.ts';
import { BUILTIN_ANNOTATION } from '../tree/marks.ts';

/**
 * pflag's ` (default …)`, left out for a zero value (false, 0, "", empty list or map) as pflag's
 * isZeroValue does; the text is the flag kind's (Go's formatting: `"x"`, `1m30s`, `[a,b]`, `[k=v]`).
 */
function formatDefault(f: Flag): string {
  const d = f.spec.default;
  if (d === undefined || d === null || d === false || d === 0 || d === '' || d === '0s') return '';
  if (Array.isArray(d) && d.length === 0) return '';
  const text = kindOf(f.spec).helpDefault(d);
  return text ? ` (default ${text})` : '';
}

/**
 * pflag's UnquoteUsage: a name in back quotes in the usage text is the value's name in the flag
 * line, and the quotes are dropped from the text (`set relative \`path\` for imports` →
 * `--D path   set relative path for imports`). @returns the name (undefined when none) and the text.
 */
export function unquoteUsage(usage: string): { name?: string; usage: string } {
  const i = usage.indexOf('`');
  const j = i < 0 ? -1 : usage.indexOf('`', i + 1);
  if (j < 0) return { usage };
  const name = usage.slice(i + 1, j);
  return { name, usage: usage.slice(0, i) + name + usage.slice(j + 1) };
}

/** pflag's `[=value]` after a flag with a NoOptDefVal (`[="bar"]` for a string flag). */
function noOptSuffix(f: Flag): string {
  const v = f.spec.noOptDefVal;
  if (v === undefined || v === '') return '';
  return kindOf(f.spec).quotesNoOptDefVal ? `[="${v}"]` : `[=${v}]`;
}

/**
 * pflag-style flag lines (pflag v1.0.9's FlagUsages, the version Cobra pins), aligned:
 * `  -t, --tag stringArray   usage (default …)`; a value name in back quotes in the usage names the
 * value, a NoOptDefVal is shown as `[=value]`, a deprecated shorthand is left out.
 */
export function flagUsages(flags: Flag[]): string {
  const rows = flags.map((f) => {
    const short = f.spec.short && f.spec.shorthandDeprecated === undefined ? `-${f.spec.short}, ` : '    ';
    const neg = f.spec.negatable ? `, --no-${f.name}` : '';
    const quoted = unquoteUsage(f.spec.usage ?? '');
    const type = quoted.name ?? (f.spec.choices ? f.spec.choices.join('|') : kindOf(f.spec).helpName);
    const left = `  ${short}--${f.name}${neg}${type ? ` ${type}` : ''}${noOptSuffix(f)}`;
    let usage = quoted.usage;
    usage += formatDefault(f);
    if (f.spec.required) usage += ' (required)';
    if (f.spec.examples) usage += ` (e.g. ${f.spec.examples.map(exampleText).join(', ')})`;
    const sources = [
      f.spec.env !== undefined ? `env ${f.spec.env}` : '',
      f.spec.config !== undefined ? `config ${f.spec.config}` : '',
    ].filter(Boolean);
    if (sources.length) usage += ` (${sources.join(', ')})`;
    if (f.spec.secret)
      usage += f.spec.secretArgv ? ' (secret)' : ` (secret: --${f.name} @file or --${f.name} - for stdin)`;
    if (f.spec.deprecated) usage += ` (DEPRECATED: ${f.spec.deprecated})`;
    // Without usage text the annotations would start with a space and break the column.
    return { left, usage: usage.trimStart() };
  });
  const width = Math.max(0, ...rows.map((r) => r.left.length));
  // pflag: the lines of a multi-line usage start under its first (FlagUsagesWrapped's "\n" handling)
  const indent = `\n${' '.repeat(width + 3)}`;
  return rows.map((r) => `${r.left.padEnd(width)}   ${r.usage.replaceAll('\n', indent)}`.trimEnd() + '\n').join('');
}

/**
 * The root help's last lines, for agents: where the commands are described as JSON, where a value
 * came from, and the AGENTS.md (docs/contract.md "Discovery").
 */
function agentsNote(p: string): string {
  return (
    `\nAgents: "${p} __schema" describes the commands as JSON ("${p} __schema <command>" for one);\n` +
    `"${p} <command> --explain <flag>" says where a ` +
    `flag's value came from; "${p} __schema --as=agents" prints AGENTS.md.\n`
  );
}

/** An example value as help shows it: text as is, anything else as JSON. */
function exampleText(x: unknown): string {
  return typeof x === 'string' ? x : JSON.stringify(x);
}

function section(title: string, body: string): string {
  return body ? `\n${title}:\n${body}` : '';
}

/** The usage line of a command: its path and argument words, plus `[flags]`. */
export function useLine(cmd: Command): string {
  if (!cmd.runnable() && cmd.hasSubCommands()) return `${cmd.commandPath()} [command]`;
  const parentPath = cmd.parent ? `${cmd.parent.commandPath()} ` : '';
  const hasFlags = true;
  return `${parentPath}${cmd.use}${hasFlags && !cmd.use.includes('[flags]') ? ' [flags]' : ''}`;
}

/** The nearest `key` function on `cmd` or an ancestor (Cobra's help/usage functions are inherited). */
function inherited<K extends 'helpFunc' | 'usageFunc'>(cmd: Command, key: K): Command[K] {
  for (let c: Command | undefined = cmd; c; c = c.parent) if (typeof c[key] === 'function') return c[key];
  return undefined;
}

/**
 * Help text of a command, as printed by `-h/--help` and `help <command>`: the nearest `helpFunc` on
 * the command or an ancestor (Cobra's SetHelpFunc), else {@link defaultHelpText}.
 */
export function helpText(cmd: Command): string {
  const fn = inherited(cmd, 'helpFunc');
  return fn ? fn(cmd) : defaultHelpText(cmd);
}

/**
 * The default help text (Cobra's help template): the long (else short) description, then the usage
 * part — the nearest `usageFunc` (Cobra's SetUsageFunc), else {@link usageText}. A `helpFunc` can
 * call this to wrap the default.
 */
export function defaultHelpText(cmd: Command): string {
  let out = '';
  const about = (cmd.long || cmd.short).trim();
  if (about) out += `${about}\n\n`;
  if (cmd.deprecated) out += `Deprecated: ${cmd.deprecated}\n\n`;
  const usage = inherited(cmd, 'usageFunc');
  return out + (usage ? usage(cmd) : usageText(cmd));
}

/**
 * The usage part of the help text (Cobra's usage template, from `Usage:` on): usage lines, aliases,
 * examples, commands (in their groups, then "Additional Commands"), arguments, flag groups, flags,
 * global flags.
 */
export function usageText(cmd: Command): string {
  let out = 'Usage:\n';
  if (cmd.runnable() || !cmd.hasSubCommands()) out += `  ${useLine(cmd)}\n`;
  const children = cmd.commands().filter((c) => !c.hidden && !c.deprecated); // Cobra lists only available commands
  if (children.length) out += `  ${cmd.commandPath()} [command]\n`;
  if (cmd.aliases.length) out += section('Aliases', `  ${[cmd.name, ...cmd.aliases].join(', ')}\n`);
  if (cmd.example.trim())
    out += section(
      'Examples',
      cmd.example
        .replace(/^\n+|\s+$/g, '')
        .split('\n')
        .map((l) => `  ${l.trimStart()}\n`)
        .join(''),
    );
  if (children.length) {
    // Cobra's NamePadding: the longest name among all the parent's children (hidden ones too, but not
    // ax-ts's hidden built-ins such as __completeNoDesc, an alias in Cobra), at least 11; then one space
    const counted = cmd.commands().filter((c) => !(c.hidden && c.annotations[BUILTIN_ANNOTATION] === 'true'));
    const w = Math.max(11, ...counted.map((c) => c.name.length));
    const lines = (cs: Command[]) => cs.map((c) => `  ${c.name.padEnd(w)} ${c.short}`.trimEnd() + '\n').join('');
    if (cmd.groups.length === 0) out += section('Available Commands', lines(children));
    else {
      // Cobra: each group's title as given, its commands; the rest under "Additional Commands"
      for (const g of cmd.groups) out += `\n${g.title}\n${lines(children.filter((c) => c.groupId === g.id))}`;
      const rest = children.filter((c) => !c.groupId || !cmd.containsGroup(c.groupId));
      if (rest.length) out += section('Additional Commands', lines(rest));
    }
  }
  if (cmd.args.length) {
    const names = cmd.args.map((a) => `${a.name}${a.variadic ? '...' : ''}`);
    const w = Math.max(...names.map((n) => n.length)) + 3;
    out += section(
      'Arguments',
      cmd.args
        .map((a, i) => {
          const bits = [
            a.description ?? '',
            argKindOf(a).positional.helpNote,
            a.required === false ? '(optional)' : '',
            a.choices ? `(one of ${a.choices.join('|')})` : '',
            a.examples ? `(e.g. ${a.examples.map(exampleText).join(', ')})` : '',
          ].filter(Boolean);
          return `  ${names[i]!.padEnd(w)}${bits.join(' ')}`.trimEnd() + '\n';
        })
        .join(''),
    );
  }
  const { local, inherited, traversed } = visibleFlags(cmd);
  if (cmd.mutuallyExclusive.length || cmd.requiredTogether.length || cmd.oneRequired.length) {
    const fl = (g: string[]) => g.map((n) => `--${n}`).join(', ');
    const lines = [
      ...cmd.mutuallyExclusive.map((g) => `  at most one of: ${fl(g)}\n`),
      ...cmd.requiredTogether.map((g) => `  all or none of: ${fl(g)}\n`),
      ...cmd.oneRequired.map((g) => `  at least one of: ${fl(g)}\n`),
    ];
    out += section('Flag Groups', lines.join(''));
  }
  out += section('Flags', flagUsages(local));
  out += section('Global Flags', flagUsages(inherited));
  // Cobra's TraverseChildren: the ancestors' local flags this command reads, each ancestor's in its
  // own section, saying where on the command line they go (Cobra's help does not list them)
  const names = cmd.pathNames();
  for (let depth = 1; depth < names.length; depth++) {
    const from = names.slice(0, depth).join(' ');
    const mine = traversed.filter((f) => f.traversedFrom === from);
    if (mine.length)
      out += section(
        `Flags of ${JSON.stringify(from)} (give them ` +
          `between ${JSON.stringify(names[depth - 1])} and ${JSON.stringify(names[depth])})`,
        flagUsages(mine),
      );
  }
  if (children.length) out += `\nUse "${cmd.commandPath()} [command] --help" for more information about a command.\n`;
  if (!cmd.parent) out += agentsNote(cmd.name);
  return out;
}
