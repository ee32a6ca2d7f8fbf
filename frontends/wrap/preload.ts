/**
 * The preload `ax-ts wrap` loads into a program it reads (docs/frontends.md#ax-ts-wrap): plain
 * JavaScript text, given to Node as a `data:` URL (`--import`), so it runs in the program's process
 * with nothing of ax-ts loaded and no file written. It hooks module loading (`module.registerHooks`:
 * `require` and `import`, every copy of commander or yargs the program loads, a nested private one
 * too), patches the loaded class's parse methods, and when the program first parses writes the tree
 * of its root command as one JSON line on the fd named by {@link TREE_FD_ENV}, then exits 0 before
 * any action, handler or code after the parse runs.
 */

/** The environment variable naming the fd the tree is written on (taken out of the environment at once). */
export const TREE_FD_ENV = 'AX_TS_WRAP_TREE_FD';

/**
 * The packages the preload notes when they load, to name what a program that is neither commander
 * nor yargs uses instead.
 */
export const PARSERS = [
  'commander',
  'yargs',
  'yargs-parser',
  'minimist',
  'meow',
  'cac',
  'citty',
  'arg',
  'mri',
  'sade',
  'clipanion',
  '@oclif/core',
  'command-line-args',
  'optionator',
  'caporal',
];

/**
 * The preload's source. The tree it writes is {@link import('./tree.ts').WrapTree}; reading a yargs
 * command runs its builder on the instance (yargs builds a command's options only when it is
 * entered), which is safe because the process exits right after.
 */
export const PRELOAD_SOURCE = String.raw`
const { registerHooks } = process.getBuiltinModule('node:module');
const { writeSync } = process.getBuiltinModule('node:fs');
const FD = Number(process.env.${TREE_FD_ENV});
delete process.env.${TREE_FD_ENV};
const KEY = Symbol.for('ax-ts.wrap');
const PARSERS = ${JSON.stringify(PARSERS)};
const found = new Set();
let sent = false;
function send(value) {
  if (sent) return;
  sent = true;
  try { writeSync(FD, JSON.stringify(value) + '\n'); } catch {}
  process.exit(0);
}
function text(v) { return typeof v === 'string' ? v : undefined; }
function plain(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}
function safe(read) { try { return read(); } catch { return undefined; } }
// commander (2 to 15): public getters where they exist, else the fields every version keeps
function commanderCommand(c) {
  const parent = c.parent;
  const options = (c.options || []).map((o) => ({
    long: text(o.long),
    short: text(o.short),
    kind: o.required ? (o.variadic ? 'list' : 'value') : o.optional ? (o.variadic ? 'list' : 'optional') : 'bool',
    description: text(o.description) || '',
    default: plain(o.defaultValue),
    choices: Array.isArray(o.argChoices) ? o.argChoices.map(String) : undefined,
    required: !!o.mandatory && o.defaultValue === undefined && !o.envVar,
    hidden: !!o.hidden,
    env: text(o.envVar),
    preset: plain(o.presetArg),
    negate: !!o.negate,
  }));
  const args = (c.registeredArguments || c._args || []).map((a) => ({
    name: typeof a.name === 'function' ? a.name() : String(a.name),
    description: text(a.description),
    required: !!a.required,
    variadic: !!a.variadic,
    choices: Array.isArray(a.argChoices) ? a.argChoices.map(String) : undefined,
  }));
  const name = typeof c.name === 'function' ? c.name() : c._name;
  return {
    name: name || '',
    aliases: typeof c.aliases === 'function' ? c.aliases() : (c._aliases || []),
    description: (typeof c.description === 'function' ? safe(() => c.description()) : c._description) || '',
    summary: typeof c.summary === 'function' ? safe(() => c.summary()) || undefined : undefined,
    hidden: !!(c._hidden || c._noHelp),
    isDefault: !!parent && parent._defaultCommandName === name,
    hasAction: !!c._actionHandler,
    executable: !!c._executableHandler,
    version: text(c._version),
    versionOption: text(c._versionOptionName),
    options,
    args,
    commands: (c.commands || []).map(commanderCommand),
  };
}
function patchCommander(Command) {
  if (!Command || !Command.prototype || Command.prototype[KEY]) return;
  Command.prototype[KEY] = true;
  for (const m of ['parse', 'parseAsync']) {
    const own = Command.prototype[m];
    if (typeof own !== 'function') continue;
    Command.prototype[m] = function (...a) {
      let root = this;
      while (root.parent) root = root.parent;
      send({ kind: 'commander', found: [...found], root: commanderCommand(root) });
      return own.apply(this, a);
    };
  }
}
// yargs (16 to 18): the instance's options, descriptions and command handlers; a command's own
// options are what its builder adds once the instance is reset for it, as yargs does on entering it
const SKIP = new Set(['help', 'version', '$0', '_']);
function internal(y) { return typeof y.getInternalMethods === 'function' ? y.getInternalMethods() : y; }
function yargsOptions(y, known) {
  const o = y.getOptions();
  const usage = internal(y).getUsageInstance();
  const descriptions = usage.getDescriptions ? usage.getDescriptions() : {};
  const aliases = o.alias || {};
  const aliasOf = new Set(Object.values(aliases).flat());
  const kindOf = (k) =>
    o.array.includes(k) ? 'list' : o.boolean.includes(k) ? 'bool' : o.count.includes(k) ? 'count' : 'value';
  const keys = Object.keys(o.key || {}).filter(
    (k) => ![k, ...(aliases[k] || [])].some((n) => SKIP.has(n)) && !aliasOf.has(k) && !known.has(k),
  );
  return keys.map((k) => {
    const all = [k, ...(aliases[k] || [])];
    const long = all.find((a) => a.length > 1);
    const short = all.find((a) => a.length === 1);
    const d = descriptions[k];
    return {
      long: long ? '--' + long : undefined,
      short: short ? '-' + short : undefined,
      kind: kindOf(k),
      type: o.number.includes(k) ? 'number' : undefined,
      description: typeof d === 'string' ? d.replace(/^__yargsString__:/, '') : '',
      default: plain(o.default ? o.default[k] : undefined),
      choices: o.choices && Array.isArray(o.choices[k]) ? o.choices[k].map(String) : undefined,
      required: !!(o.demandedOptions && k in o.demandedOptions) && (!o.default || o.default[k] === undefined),
      hidden: (o.hiddenOptions || []).includes(k),
      env: undefined,
      negate: false,
    };
  });
}
function yargsArgs(handler) {
  const one = (p, required) => ({
    name: p.cmd[0],
    required,
    variadic: !!p.variadic,
  });
  return [...(handler.demanded || []).map((p) => one(p, true)), ...(handler.optional || []).map((p) => one(p, false))];
}
function yargsLevel(y, known, depth) {
  const inner = internal(y);
  const ci = inner.getCommandInstance();
  const handlers = { ...ci.getCommandHandlers() };
  const aliasMap = { ...(ci.aliasMap || {}) };
  const options = yargsOptions(y, known);
  const here = new Set([...known, ...Object.keys(y.getOptions().key || {})]);
  const commands = [];
  for (const [name, h] of Object.entries(handlers)) {
    const isDefault = /^(\$0|\*)/.test(h.original || '') || name === '$0';
    let level = { options: [], commands: [], unread: undefined };
    if (depth < 6) {
      try {
        const fresh = inner.reset({});
        if (typeof h.builder === 'function') h.builder(fresh);
        else if (h.builder && typeof h.builder === 'object') for (const k of Object.keys(h.builder)) fresh.option(k, h.builder[k]);
        level = yargsLevel(fresh, here, depth + 1);
        // a positional the builder describes (.positional('port', …)) is an option key to yargs,
        // but one argument of the command: not an option beside it
        const positional = new Set([...(h.demanded || []), ...(h.optional || [])].flatMap((p) => p.cmd));
        level.options = level.options.filter(
          (x) => !positional.has((x.long || '').slice(2)) && !positional.has((x.short || '').slice(1)),
        );
        // what the builder added is local to its command: the next reset drops it (yargs keeps
        // options global otherwise, and a sibling would seem to have them)
        const o = fresh.getOptions();
        o.local = [...(o.local || []), ...Object.keys(o.key || {}).filter((k) => !here.has(k))];
      } catch (e) {
        level.unread = String(e && e.message || e);
      }
    }
    commands.push({
      name: isDefault ? '$0' : name,
      aliases: Object.keys(aliasMap).filter((a) => aliasMap[a] === name),
      description: typeof h.description === 'string' ? h.description : '',
      hidden: h.description === false,
      isDefault,
      hasAction: typeof h.handler === 'function',
      options: level.options,
      args: yargsArgs(h),
      commands: level.commands,
      unread: level.unread,
    });
  }
  return { options, commands };
}
function patchYargs(proto) {
  if (!proto || proto[KEY]) return;
  proto[KEY] = true;
  // yargs 16's argv getter calls _parseArgs itself; the first call is the program's own
  for (const m of ['parse', 'parseAsync', 'parseSync', '_parseArgs']) {
    const own = proto[m];
    if (typeof own !== 'function') continue;
    proto[m] = function (...a) {
      if (!sent) {
        let tree;
        try {
          const name = safe(() => this.$0) || '';
          const root = yargsLevel(this, new Set(), 0);
          tree = { kind: 'yargs', found: [...found], root: { name, aliases: [], description: '', options: root.options, args: [], commands: root.commands, hasAction: false } };
        } catch (e) {
          tree = { kind: 'yargs', found: [...found], error: String(e && e.message || e) };
        }
        send(tree);
      }
      return own.apply(this, a);
    };
  }
}
globalThis[KEY] = {
  commander: patchCommander,
  yargsClass: (C) => patchYargs(C && C.prototype),
  yargsFactory(exports) {
    const make = exports && exports.Yargs;
    if (typeof make !== 'function') return;
    exports.Yargs = function (...a) {
      const y = make.apply(this, a);
      // yargs 16 keeps its methods on the instance (the singleton binds them next), 17 on the class
      patchYargs(Object.hasOwn(y, 'parse') ? y : Object.getPrototypeOf(y));
      return y;
    };
  },
};
const HOOK = '\n;globalThis[Symbol.for("ax-ts.wrap")]';
registerHooks({
  load(url, context, nextLoad) {
    const r = nextLoad(url, context);
    const m = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
    if (!m) return r;
    if (PARSERS.includes(m[1])) found.add(m[1]);
    let add;
    if (m[1] === 'commander' && m[2] === 'index.js') add = HOOK + '.commander(Command);\n';
    else if (m[1] === 'yargs' && m[2] === 'build/lib/yargs-factory.js') add = HOOK + '.yargsClass(YargsInstance);\n';
    else if (m[1] === 'yargs' && m[2] === 'build/index.cjs') add = HOOK + '.yargsFactory(module.exports);\n';
    if (!add || r.source == null) return r;
    return { ...r, source: String(r.source) + add };
  },
});
process.on('exit', (code) => {
  if (!sent) {
    sent = true;
    try { writeSync(FD, JSON.stringify({ kind: 'none', found: [...found], exited: code }) + '\n'); } catch {}
  }
});
`;
