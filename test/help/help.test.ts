/**
 * Help through `execute`: `-h/--help`, `help [command...]`, groups without a handler, hidden and
 * deprecated commands and flags, and "did you mean" suggestions for unknown commands and flags.
 */
import { describe, expect, it, test } from 'vitest';
import { Command, helpText } from '../../lib/index.ts';
import { errorOf, runCli } from '../helpers/run.ts';

/** A fresh tree with everything help shows (and hides). */
function tool(): Command {
  const list = new Command({
    use: 'list',
    aliases: ['ls'],
    short: 'List items',
    long: 'List the items of the store, newest first.',
    example: 'tool list --limit 5\ntool ls -l 2 --status done',
    flags: {
      limit: { type: 'int', short: 'l', default: 10, usage: 'maximum number of items' },
      status: { type: 'string', choices: ['open', 'done', 'all'], default: 'open', usage: 'which items to show' },
      all: { type: 'bool', short: 'a', usage: 'show everything' },
      color: { type: 'bool', negatable: true, default: true, usage: 'colour the output' },
      tag: { type: 'stringSlice', usage: 'only items with these tags' },
      label: { type: 'stringArray' },
      timeout: { type: 'duration', default: '30s' },
      secret: { type: 'string', hidden: true, usage: 'never shown' },
      old: { type: 'bool', deprecated: 'use --all', usage: 'old switch' },
      token: { type: 'string', required: true, usage: 'API token' },
    },
    dryRun: true, // the one command here that offers a dry run: its help lists --dry-run
    run: () => [],
  });
  const get = new Command({
    use: 'get <id> [field]',
    short: 'Get one item',
    args: [
      { name: 'id', description: 'item id' },
      { name: 'field', required: false, description: 'one field only', choices: ['title', 'status'] },
    ],
    run: () => ({}),
  });
  const remote = new Command({
    use: 'remote',
    short: 'Manage remotes',
    persistentFlags: { remote: { type: 'string', short: 'r', usage: 'remote name' } },
    commands: [
      new Command({ use: 'rm <name>', short: 'Remove a remote', run: () => null }),
      new Command({
        use: 'add <name> <url>',
        short: 'Add a remote',
        mutuallyExclusive: [['ssh', 'https']],
        flags: { ssh: { type: 'bool' }, https: { type: 'bool' } },
        run: () => null,
      }),
    ],
  });
  const hiddenCmd = new Command({ use: 'internal', short: 'Internal use', hidden: true, run: () => 'internal ran' });
  const legacy = new Command({
    use: 'legacy',
    short: 'Old way to get',
    deprecated: 'use "get" instead',
    run: () => null,
  });
  return new Command({
    use: 'tool',
    short: 'Tool does things',
    long: 'Tool does things.\nIt has a long description.',
    persistentFlags: { verbose: { type: 'count', short: 'V', usage: 'more output' } },
    commands: [remote, list, get, hiddenCmd, legacy],
  });
}

const EXPLAIN_LINE =
  "      --explain string           print where a flag's value came from (flag > env > config > default) instead of running";
/** The injected `--fields` (docs/contract.md#selecting-fields---fields). */
const FIELDS_LINE =
  '      --fields strings           only these fields of data: dotted paths such as owner.name, in each item of a list';
const STRICT_LINE =
  '      --strict                   fail (warnings_as_errors, exit 2) if the command warns; stdout stays empty';
const TIMEOUT_LINE = '      --timeout duration         stop the command after this long (timeout, exit 3), e.g. 30s';
const YES_LINE =
  "  -y, --yes                      answer yes to the command's confirmation (only with the user's consent)";
/** The root help's last lines: pointers for agents (docs/contract.md "Discovery"). */
const AGENTS_NOTE = [
  '',
  'Agents: "tool __schema" describes the commands as JSON ("tool __schema <command>" for one);',
  '"tool <command> --explain <flag>" says where a flag\'s value came from; "tool __schema --as=agents" prints AGENTS.md.',
];
/** `--dry-run`, listed only by a command that offers a dry run (docs/contract.md#dry-run-ctxguard-ctxperform-ctxconfirm). */
const DRY_RUN_LINE = '      --dry-run                  show what would change without changing anything';
/** The injected flags a command without a dry run lists. */
const INJECTED_GLOBALS = [
  "      --args-json string         all arguments as one JSON object shaped like the command's inputSchema (see __schema --as=llms)",
  EXPLAIN_LINE,
  FIELDS_LINE,
  '      --format string            output format: json or text (json also: agent, machine; text also: human)',
  KEY_REPLAYS_LINE(),
];
/** The key's help line says per command whether a retry with it replays: it does on a runnable command with undeclared effects… */
function KEY_REPLAYS_LINE(): string {
  return '      --idempotency-key string   key that makes a retry safe: a retry with the same key and arguments replays the first outcome instead of running again (default: a fresh UUID v4)';
}
/** …and a group (which runs nothing itself) says what the key does on the commands below it. */
const KEY_ECHOED =
  "      --idempotency-key string   on a command that replays, a retry with the same key and arguments gets the first outcome again; elsewhere it is only echoed in meta.idempotency_key (each command's help says which; default: a fresh UUID v4)";
/** The injected flags as a group's help lists them (up to --idempotency-key). */
const GROUP_GLOBALS = [...INJECTED_GLOBALS.slice(0, 4), KEY_ECHOED];

/**
 * Root help. ax-ts adds a visible `schema` command (clispec) to roots that take no positionals; its
 * one-line summary belongs to that built-in, so the test reads it from the installed command.
 */
const rootHelp = (schemaShort: string) =>
  [
    'Tool does things.',
    'It has a long description.',
    '',
    'Usage:',
    '  tool [command]',
    '',
    'Available Commands:',
    '  completion  Generate the autocompletion script for the specified shell',
    '  get         Get one item',
    '  help        Help about any command',
    '  list        List items',
    '  remote      Manage remotes',
    `  schema      ${schemaShort}`,
    '',
    'Flags:',
    INJECTED_GLOBALS[0],
    INJECTED_GLOBALS[1],
    INJECTED_GLOBALS[2],
    INJECTED_GLOBALS[3],
    '  -h, --help                     help for tool',
    KEY_ECHOED, // the root is a group
    STRICT_LINE,
    TIMEOUT_LINE,
    '  -V, --verbose count            more output',
    '  -v, --version                  version for tool',
    YES_LINE,
    '',
    'Use "tool [command] --help" for more information about a command.',
    ...AGENTS_NOTE,
    '',
  ].join('\n');

/** The summary of the built-in `schema` command, as installed on a root by execute. */
async function schemaShort(): Promise<string> {
  const root = tool();
  await runCli(root, ['--help']); // a root run that reaches the built-ins (a bare --version builds none)
  const schema = root.findChild('schema');
  expect(schema).toBeDefined();
  expect(schema!.short).not.toBe('');
  return schema!.short;
}

const ROOT_HELP = '<root help>';

/** The command names listed under Available Commands. */
const ROOT_HELP_LINES_OF = (r: { stdout: string }) =>
  r.stdout
    .split('Available Commands:\n')[1]!
    .split('\n\n')[0]!
    .split('\n')
    .map((l) => l.trim().split(' ')[0]);

const LIST_HELP = [
  'List the items of the store, newest first.',
  '',
  'Usage:',
  '  tool list [flags]',
  '',
  'Aliases:',
  '  list, ls',
  '',
  'Examples:',
  '  tool list --limit 5',
  '  tool ls -l 2 --status done',
  '',
  'Flags:',
  '  -a, --all                    show everything',
  '      --color, --no-color      colour the output (default true)',
  '  -h, --help                   help for list',
  '      --label stringArray',
  '  -l, --limit int              maximum number of items (default 10)',
  '      --old                    old switch (DEPRECATED: use --all)',
  '      --status open|done|all   which items to show (default "open")',
  '      --tag strings            only items with these tags',
  '      --timeout duration       (default 30s)',
  '      --token string           API token (required)',
  '',
  'Global Flags:',
  INJECTED_GLOBALS[0],
  DRY_RUN_LINE,
  ...INJECTED_GLOBALS.slice(1),
  STRICT_LINE, // list's own --timeout shadows the injected one
  '  -V, --verbose count            more output',
  YES_LINE,
  '',
].join('\n');

const GET_HELP = [
  'Get one item',
  '',
  'Usage:',
  '  tool get <id> [field] [flags]',
  '',
  'Arguments:',
  '  id      item id',
  '  field   one field only (optional) (one of title|status)',
  '',
  'Flags:',
  '  -h, --help   help for get',
  '',
  'Global Flags:',
  ...INJECTED_GLOBALS,
  STRICT_LINE,
  TIMEOUT_LINE,
  '  -V, --verbose count            more output',
  YES_LINE,
  '',
].join('\n');

const REMOTE_HELP = [
  'Manage remotes',
  '',
  'Usage:',
  '  tool remote [command]',
  '',
  'Available Commands:',
  '  add         Add a remote',
  '  rm          Remove a remote',
  '',
  'Flags:',
  '  -h, --help            help for remote',
  '  -r, --remote string   remote name',
  '',
  'Global Flags:',
  ...GROUP_GLOBALS, // remote is a group
  STRICT_LINE,
  TIMEOUT_LINE,
  '  -V, --verbose count            more output',
  YES_LINE,
  '',
  'Use "tool remote [command] --help" for more information about a command.',
  '',
].join('\n');

const REMOTE_ADD_HELP = [
  'Add a remote',
  '',
  'Usage:',
  '  tool remote add <name> <url> [flags]',
  '',
  'Arguments:',
  '  name',
  '  url',
  '',
  'Flag Groups:',
  '  at most one of: --ssh, --https',
  '',
  'Flags:',
  '  -h, --help    help for add',
  '      --https',
  '      --ssh',
  '',
  'Global Flags:',
  ...INJECTED_GLOBALS,
  '  -r, --remote string            remote name',
  STRICT_LINE,
  TIMEOUT_LINE,
  '  -V, --verbose count            more output',
  YES_LINE,
  '',
].join('\n');

describe('help output', () => {
  test.each([
    { argv: ['--help'], want: ROOT_HELP },
    { argv: ['-h'], want: ROOT_HELP },
    { argv: ['help'], want: ROOT_HELP },
    { argv: [], want: ROOT_HELP }, // a group without run prints its help
    { argv: ['-V', '--help'], want: ROOT_HELP },
    { argv: ['list', '--help'], want: LIST_HELP },
    { argv: ['list', '-h'], want: LIST_HELP },
    { argv: ['ls', '-h'], want: LIST_HELP },
    { argv: ['-h', 'list'], want: LIST_HELP },
    { argv: ['list', '--help=true'], want: LIST_HELP },
    { argv: ['help', 'list'], want: LIST_HELP },
    { argv: ['help', 'ls'], want: LIST_HELP },
    { argv: ['get', '-h'], want: GET_HELP },
    { argv: ['help', 'get'], want: GET_HELP },
    { argv: ['remote'], want: REMOTE_HELP },
    { argv: ['remote', '-h'], want: REMOTE_HELP },
    { argv: ['help', 'remote'], want: REMOTE_HELP },
    { argv: ['remote', 'add', '--help'], want: REMOTE_ADD_HELP },
    { argv: ['help', 'remote', 'add'], want: REMOTE_ADD_HELP },
    { argv: ['remote', '-r', 'origin', 'add', '-h'], want: REMOTE_ADD_HELP },
  ])('$argv', async ({ argv, want }) => {
    if (want === ROOT_HELP) want = rootHelp(await schemaShort());
    for (const tty of [false, true]) {
      const r = await runCli(tool(), argv, { tty });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(want);
    }
  });

  it('helpText gives the same text as --help', async () => {
    const root = tool();
    const r = await runCli(root, ['list', '--help']);
    expect(helpText(root.findChild('list')!)).toBe(r.stdout);
  });

  it('-h wins over missing arguments, required flags and the handler', async () => {
    let ran = false;
    const root = tool();
    root.findChild('list')!.run = () => (ran = true);
    const r = await runCli(root, ['list', '-h']);
    expect(r.code).toBe(0);
    expect(ran).toBe(false);
    expect((await runCli(tool(), ['get', '-h'])).code).toBe(0);
  });

  it('--help=false does not print help', async () => {
    const r = await runCli(tool(), ['get', '7', '--help=false']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toStrictEqual({});
  });

  it('a hidden command is absent from help but runnable and has its own help', async () => {
    const root = await runCli(tool(), ['--help']);
    expect(root.stdout).not.toContain('internal');
    expect(root.stdout).not.toMatch(/^ {2}(internal|__schema) /m);
    const run = await runCli(tool(), ['internal']);
    expect(JSON.parse(run.stdout).data).toBe('internal ran');
    const own = await runCli(tool(), ['internal', '-h']);
    expect(own.stdout.startsWith('Internal use\n\nUsage:\n  tool internal [flags]\n')).toBe(true);
  });

  it('a hidden flag is absent from help but accepted', async () => {
    expect(LIST_HELP).not.toContain('secret');
    const r = await runCli(tool(), ['list', '--token', 't', '--secret', 's']);
    expect(r.code).toBe(0);
  });

  it('a deprecated command is left out of listings, still runs, and says so in its own help', async () => {
    expect(ROOT_HELP_LINES_OF(await runCli(tool(), ['--help']))).not.toContain('legacy');
    expect((await runCli(tool(), ['legacy'])).code).toBe(0);
    const r = await runCli(tool(), ['legacy', '--help']);
    expect(
      r.stdout.startsWith('Old way to get\n\nDeprecated: use "get" instead\n\nUsage:\n  tool legacy [flags]\n'),
    ).toBe(true);
    expect(r.stderr).toBe('');
  });

  it('a runnable command with subcommands shows both usage lines', async () => {
    const root = new Command({
      use: 'app',
      commands: [
        new Command({
          use: 'db [name]',
          short: 'Databases',
          run: () => null,
          commands: [new Command({ use: 'drop', short: 'Drop it', run: () => null })],
        }),
      ],
    });
    const r = await runCli(root, ['db', '-h']);
    expect(r.stdout).toBe(
      [
        'Databases',
        '',
        'Usage:',
        '  app db [name] [flags]',
        '  app db [command]',
        '',
        'Available Commands:',
        '  drop        Drop it',
        '',
        'Arguments:',
        '  name   (optional)',
        '',
        'Flags:',
        '  -h, --help   help for db',
        '',
        'Global Flags:',
        ...INJECTED_GLOBALS,
        STRICT_LINE,
        TIMEOUT_LINE,
        YES_LINE,
        '',
        'Use "app db [command] --help" for more information about a command.',
        '',
      ].join('\n'),
    );
  });

  it('a lone runnable root has no command listing', async () => {
    const root = new Command({
      use: 'solo <file>',
      short: 'Solo tool',
      flags: { n: { type: 'int', short: 'n', usage: 'count' } },
      run: () => null,
    });
    const r = await runCli(root, ['--help']);
    expect(r.stdout).toBe(
      [
        'Solo tool',
        '',
        'Usage:',
        '  solo <file> [flags]',
        '',
        'Arguments:',
        '  file',
        '',
        'Flags:',
        INJECTED_GLOBALS[0],
        INJECTED_GLOBALS[1],
        INJECTED_GLOBALS[2],
        INJECTED_GLOBALS[3],
        '  -h, --help                     help for solo',
        INJECTED_GLOBALS[4],
        '  -n, --n int                    count',
        STRICT_LINE,
        TIMEOUT_LINE,
        '  -v, --version                  version for solo',
        YES_LINE,
        '',
        'Agents: "solo __schema" describes the commands as JSON ("solo __schema <command>" for one);',
        '"solo <command> --explain <flag>" says where a flag\'s value came from; "solo __schema --as=agents" prints AGENTS.md.',
        '',
      ].join('\n'),
    );
  });

  it('shorthands taken by the author are not given to --help/--version', async () => {
    const root = new Command({
      use: 'app',
      persistentFlags: {
        host: { type: 'string', short: 'h', usage: 'host' },
        verbose: { type: 'bool', short: 'v', usage: 'chatty' },
      },
      commands: [new Command({ use: 'x', run: (ctx) => ctx.flags.host })],
    });
    const r = await runCli(root, ['--help']);
    expect(r.stdout).toContain('\n      --help                     help for app\n');
    expect(r.stdout).toContain('\n  -h, --host string              host\n');
    expect(r.stdout).toContain('\n      --version                  version for app\n');
    const x = await runCli(root, ['x', '-h', 'db1']);
    expect(JSON.parse(x.stdout).data).toBe('db1');
  });
});

/** `tool __schema remote` for `tool remote`: where an agent reads the commands below it. */
const schemaOf = (command: string) => command.replace(/^tool/, 'tool __schema');

describe('unknown commands: errors and suggestions', () => {
  test.each([
    { argv: ['lst'], command: 'tool', word: 'lst', suggestions: ['tool list', 'tool get'] }, // distance 1, then 2
    { argv: ['gett'], command: 'tool', word: 'gett', suggestions: ['tool get'] },
    { argv: ['LIST'], command: 'tool', word: 'LIST', suggestions: ['tool list'] }, // case-insensitive distance
    { argv: ['rem'], command: 'tool', word: 'rem', suggestions: ['tool remote', 'tool get'] }, // prefix (distance 3, ranked as 2) wins the tie with distance 2
    { argv: ['remot'], command: 'tool', word: 'remot', suggestions: ['tool remote'] },
    { argv: ['lz'], command: 'tool', word: 'lz', suggestions: undefined }, // names only, like Cobra: the alias ls is no candidate
    { argv: ['legac'], command: 'tool', word: 'legac', suggestions: undefined }, // deprecated commands are never suggested
    { argv: ['hlep'], command: 'tool', word: 'hlep', suggestions: ['tool help'] },
    { argv: ['remotes'], command: 'tool', word: 'remotes', suggestions: ['tool remote'] },
    { argv: ['zzzzzz'], command: 'tool', word: 'zzzzzz', suggestions: undefined },
    { argv: ['internl'], command: 'tool', word: 'internl', suggestions: undefined }, // hidden commands are never suggested
    {
      argv: ['remote', 'ad', 'x', 'y'],
      command: 'tool remote',
      word: 'ad',
      suggestions: ['tool remote add', 'tool remote rm'],
    },
    { argv: ['remote', 'delete'], command: 'tool remote', word: 'delete', suggestions: undefined },
    { argv: ['help', 'lsit'], command: 'tool', word: 'lsit', suggestions: ['tool list'], topic: ['lsit'] },
    {
      argv: ['help', 'remote', 'rmm'],
      command: 'tool remote',
      word: 'rmm',
      suggestions: ['tool remote rm'],
      topic: ['remote', 'rmm'],
    },
  ] as { argv: string[]; command: string; word: string; suggestions?: string[]; topic?: string[] }[])(
    '$argv',
    async ({ argv, command, word, suggestions, topic }) => {
      const r = await runCli(tool(), argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const { error } = errorOf(r.stderr);
      expect(error).toStrictEqual({
        kind: 'validation_error',
        // `help <unknown>` words it as Cobra does: Unknown help topic [`a` `b`]
        message: topic
          ? `Unknown help topic [${topic.map((t) => `\`${t}\``).join(' ')}]`
          : `unknown command ${JSON.stringify(word)} for ${JSON.stringify(command)}`,
        exit_code: 2,
        retryable: false,
        // the fix points agents at the JSON description of the same commands
        actionable_fix: suggestions
          ? `Did you mean '${suggestions[0]}'? Run '${command} --help' to list commands (agents: '${schemaOf(command)}').`
          : `Run '${command} --help' to list commands (agents: '${schemaOf(command)}').`,
        ...(suggestions ? { suggestions } : {}),
        context: { reason: 'unknown_command', command, received: word, ...(topic ? { topic } : {}) },
      });
    },
  );

  it('human mode lists the suggestions', async () => {
    const r = await runCli(tool(), ['remot'], { tty: true });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'Error: unknown command "remot" for "tool"\n\nDid you mean this?\n\ttool remote\n\nUsage: tool [command]\nFix: Run \'tool --help\' to list commands (agents: \'tool __schema\').\n',
    );
  });

  it('an unknown command is reported even with -h', async () => {
    const r = await runCli(tool(), ['bogus', '-h']);
    expect(r.code).toBe(2);
    expect(errorOf(r.stderr).error.message).toBe('unknown command "bogus" for "tool"');
  });
});

describe('`help` is reserved at any depth', () => {
  it('`grp help [command…]` is the help of `grp [command…]`, as `help grp [command…]` is', async () => {
    for (const [words, same] of [
      [
        ['remote', 'help'],
        ['remote', '--help'],
      ],
      [
        ['remote', 'help', 'add'],
        ['remote', 'add', '--help'],
      ],
      [
        ['remote', 'help', 'add'],
        ['help', 'remote', 'add'],
      ],
    ]) {
      const r = await runCli(tool(), words!);
      expect(r.code, words!.join(' ')).toBe(0);
      expect(r.stdout).toBe((await runCli(tool(), same!)).stdout);
      expect(r.stdout).toMatch(/^Usage:$/m);
    }
  });

  it('`grp help <unknown>` is an unknown help topic', async () => {
    const r = await runCli(tool(), ['remote', 'help', 'rmm']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorOf(r.stderr).error).toMatchObject({
      message: 'Unknown help topic [`remote` `rmm`]',
      suggestions: ['tool remote rm'],
      context: { reason: 'unknown_command', command: 'tool remote', received: 'rmm', topic: ['remote', 'rmm'] },
    });
  });

  it("an author's `help` below the root is no MCP tool (as one under the root is not)", async () => {
    const root = tool();
    root
      .findChild('remote')!
      .addCommand(new Command({ use: 'help', short: "the author's", run: () => ({ mine: true }) }));
    const r = await runCli(root, ['__schema', '--as=mcp', '--full']);
    expect(r.code).toBe(0);
    const names = (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain('remote_add');
    expect(names.filter((n) => n.includes('help'))).toEqual([]);
  });
});

describe('unknown flags: suggestions', () => {
  test.each([
    { argv: ['list', '--limt', '3'], flag: '--limt', suggestions: ['--limit'] },
    { argv: ['list', '--stat'], flag: '--stat', suggestions: ['--status', '--tag'] }, // prefix, then distance 2
    { argv: ['list', '--verbos'], flag: '--verbos', suggestions: ['--verbose'] }, // inherited flags are candidates
    { argv: ['list', '--dryrun'], flag: '--dryrun', suggestions: ['--dry-run'] }, // injected flags too
    { argv: ['list', '--secrte'], flag: '--secrte', suggestions: undefined }, // hidden flags are never suggested
    { argv: ['list', '--zzzzzzzz'], flag: '--zzzzzzzz', suggestions: undefined },
    { argv: ['remote', 'add', '--shh'], flag: '--shh', suggestions: ['--ssh'] },
  ])('$argv', async ({ argv, flag, suggestions }) => {
    const r = await runCli(tool(), argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const { error } = errorOf(r.stderr);
    const path = `tool ${argv.filter((a) => !a.startsWith('-') && a !== '3').join(' ')}`;
    expect(error).toStrictEqual({
      kind: 'validation_error',
      message: `unknown flag: ${flag}`,
      exit_code: 2,
      retryable: false,
      actionable_fix: suggestions
        ? `Did you mean ${suggestions[0]}? Run '${path} --help' to see its flags.`
        : `Run '${path} --help' to see its flags.`,
      ...(suggestions ? { suggestions } : {}),
      context: { reason: 'unknown_flag', command: path, flag },
    });
  });
});
