/**
 * Shell completion engine (`__complete`, Cobra's protocol) and the `completion` command, through the
 * public entry point: `execute(root, {args: ['__complete', '--', ...words, partial]})`. The output is
 * one candidate a line (`value` or `value\tdescription`) and a last line `:<directive>`.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';
import { complete } from '../../lib/completion/completion.ts';
import { completionScript } from '../../lib/completion/scripts.ts';
import { ShellCompDirective, SHELLS } from '../../lib/completion/directives.ts';
import { completionCommands } from '../../lib/completion/commands.ts';
import { BUILTIN_ANNOTATION } from '../../lib/tree/marks.ts';
import { runCli, type RunCliOptions } from '../helpers/run.ts';
import { completionTree } from '../fixtures/completion-tree.ts';
import type { CompletionContext } from '../../lib/tree/flag-spec.ts';

const { NoFileComp, Default, Error: ErrorBit } = ShellCompDirective;

interface Completion {
  code: number;
  stdout: string;
  stderr: string;
  /** Candidate values in output order. */
  values: string[];
  /** value → description ('' when none). */
  descriptions: Record<string, string>;
  directive: number;
}

/** Runs `__complete -- <words...>` (the last word is the partial) and parses the answer. */
async function comp(words: string[], opts: RunCliOptions & { bare?: boolean } = {}): Promise<Completion> {
  const args = opts.bare ? ['__complete', ...words] : ['__complete', '--', ...words];
  const r = await runCli(completionTree(), args, opts);
  const lines = r.stdout.split('\n');
  expect(lines.pop()).toBe(''); // ends with a newline
  const last = lines.pop() ?? '';
  expect(last).toMatch(/^:\d+$/);
  const descriptions: Record<string, string> = {};
  const values = lines.map((l) => {
    const [v, d = ''] = l.split('\t');
    descriptions[v!] = d;
    return v!;
  });
  return { ...r, values, descriptions, directive: Number(last.slice(1)) };
}

describe('__complete: subcommands', () => {
  it('offers visible subcommands with their short, never aliases (Cobra), hidden, deprecated or internal ones', async () => {
    const r = await comp(['']);
    expect(r.code).toBe(0);
    expect(r.values).toEqual(
      expect.arrayContaining(['broken', 'completion', 'config', 'deploy', 'exec', 'help', 'logs']),
    );
    for (const absent of ['internal-debug', 'legacy', '__complete', '__completeNoDesc', '__schema', 'dp', 'ship'])
      expect(r.values).not.toContain(absent);
    expect(r.descriptions.deploy).toBe('Deploy services to an environment');
    expect(r.stdout).toContain('deploy\tDeploy services to an environment\n');
    expect(r.directive).toBe(NoFileComp);
    expect(r.stderr).toBe('');
  });

  it('filters by the partial word; aliases are not offered (Cobra)', async () => {
    expect((await comp(['d'])).values).toEqual(['deploy']);
    expect((await comp(['sh'])).values).toEqual([]);
    expect((await comp(['config', ''])).values).toEqual(['get', 'set']);
    expect((await comp(['completion', ''])).values).toEqual(['bash', 'fish', 'powershell', 'zsh']);
  });

  it('with no words at all completes after the program name', async () => {
    const r = await runCli(completionTree(), ['__complete']);
    expect(r.stdout).toContain('deploy\t');
    expect(r.stdout.endsWith(`:${NoFileComp}\n`)).toBe(true);
  });

  it('finds the command through aliases and flags given before it', async () => {
    expect((await comp(['dp', '--re'])).values).toEqual(['--region', '--replicas']);
    expect((await comp(['--profile', 'dev', 'de'])).values).toEqual(['deploy']);
    expect((await comp(['-p', 'dev', '--verbose', 'config', 's'])).values).toEqual(['set']);
  });

  it('help completes command paths', async () => {
    expect((await comp(['help', 'con'])).values).toEqual(['config']);
    expect((await comp(['help', 'config', ''])).values).toEqual(['get', 'set']);
  });

  it('also accepts the bare form without -- when the words hold no flags', async () => {
    const r = await comp(['deploy', 'st'], { bare: true });
    expect(r.values).toEqual(['staging']);
  });
});

describe('__complete: flags', () => {
  it("offers long flags with usage, inherited then local (Cobra's order); shorthands only for a partial of one dash", async () => {
    const dash = await comp(['deploy', '-']);
    expect(dash.values).toEqual(
      expect.arrayContaining([
        '--force',
        '-f',
        '--region',
        '-r',
        '--tag',
        '--replicas',
        '--manifest',
        '--wait',
        '--help',
        '-h',
        '--profile',
        '-p',
        '--verbose',
        '--format',
      ]),
    );
    expect(dash.descriptions['--region']).toBe('region to deploy to');
    expect(dash.descriptions['-r']).toBe('region to deploy to');
    expect(dash.values.indexOf('--profile')).toBeLessThan(dash.values.indexOf('--wait')); // inherited before local (Cobra's getCompletions)
    for (const absent of ['--secret', '--old', '--version', '--no-wait']) expect(dash.values).not.toContain(absent);
    expect(dash.directive).toBe(NoFileComp);

    const dd = await comp(['deploy', '--']);
    expect(dd.values).toContain('--region');
    expect(dd.values.filter((v) => !v.startsWith('--'))).toEqual([]);

    expect((await comp(['deploy', '--re'])).values).toEqual(['--region', '--replicas']);
    expect((await comp(['deploy', '-r'])).values).toEqual(['-r']);
    expect((await comp(['deploy', '--no'])).values).toEqual(['--no-wait']);
    expect((await comp(['--v'])).values).toEqual(['--verbose', '--version']); // --version only at the root
  });

  it('does not offer a flag again, but does offer slices, arrays and maps (Cobra: not counts)', async () => {
    const r = await comp(['deploy', '--force', '--region', 'eu-west', '--tag', 'blue', '--verbose', '--']);
    expect(r.values).not.toContain('--force');
    expect(r.values).not.toContain('--region');
    expect(r.values).toContain('--tag');
    expect(r.values).not.toContain('--verbose');
    // given through a shorthand, a negation or --name=value
    const s = await comp(['deploy', '-f', '--no-wait', '--replicas=3', '-']);
    for (const absent of ['--force', '-f', '--wait', '--replicas']) expect(s.values).not.toContain(absent);
    expect(s.values).toContain('--region');
  });

  it('completes the value of a flag from its choices (--flag v, -x v, --flag=v, -abc v)', async () => {
    const long = await comp(['deploy', '--region', '']);
    expect(long.values).toEqual(['eu-west', 'us-east', 'ap-south']);
    expect(long.directive).toBe(NoFileComp);
    expect((await comp(['deploy', '-r', 'u'])).values).toEqual(['us-east']);
    // --flag=<partial>: bare values (the scripts put the --flag= prefix back, like Cobra)
    const eq = await comp(['deploy', '--region=e']);
    expect(eq.values).toEqual(['eu-west']);
    expect(eq.directive).toBe(NoFileComp);
    expect((await comp(['deploy', '-fr', 'a'])).values).toEqual(['ap-south']);
  });

  it('completes a slice flag item by item after commas', async () => {
    expect((await comp(['deploy', '--tag', 'blue,'])).values).toEqual(['blue,green', 'blue,canary']);
    expect((await comp(['deploy', '--tag', 'blue,c'])).values).toEqual(['blue,canary']);
  });

  it("uses a flag's completer (sync or async, with `value\\tdescription`), inherited flags included", async () => {
    const r = await comp(['deploy', '--profile', '']);
    expect(r.values).toEqual(['dev', 'prod', 'staging']);
    expect(r.descriptions).toEqual({ dev: 'local development', prod: 'production account', staging: '' });
    expect(r.stdout).toBe('dev\tlocal development\nprod\tproduction account\nstaging\n:4\n');
    expect((await comp(['-p', 'pr'])).values).toEqual(['prod']);
    expect((await comp(['--profile=d'])).values).toEqual(['dev']);
  });

  it('falls back to file completion for a free string flag, none for numbers', async () => {
    const file = await comp(['deploy', '--manifest', '']);
    expect(file.values).toEqual([]);
    expect(file.directive).toBe(Default);
    const num = await comp(['deploy', '--replicas', '']);
    expect(num.values).toEqual([]);
    expect(num.directive).toBe(NoFileComp);
  });

  it('a bool flag takes no value: the next word is completed as a positional', async () => {
    expect((await comp(['deploy', '--force', ''])).values).toEqual(['staging', 'production']);
    expect((await comp(['deploy', '-f', 'p'])).values).toEqual(['production']);
    expect((await comp(['deploy', '--force=', ''])).values).toEqual(['staging', 'production']);
    expect((await comp(['deploy', '--force='])).values).toEqual(['true', 'false']);
  });

  it('offers a required flag not yet given even before a dash is typed (Cobra)', async () => {
    const root = new Command({
      use: 'app',
      commands: [
        new Command({
          use: 'login',
          flags: { user: { type: 'string', required: true, usage: 'user name' }, otp: { type: 'string' } },
          run: () => 1,
        }),
      ],
    });
    root.addCommand(...completionCommands(root));
    const first = await runCli(root, ['__complete', '--', 'login', '']);
    expect(first.stdout).toBe('--user\tuser name\n:4\n');
    const given = await runCli(root, ['__complete', '--', 'login', '--user', 'me', '']);
    expect(given.stdout).toBe(':4\n');
  });

  it('skips unknown flags in the words instead of failing', async () => {
    expect((await comp(['deploy', '--bogus', '-z', 'st'])).values).toEqual(['staging']);
  });
});

describe('__complete: positionals', () => {
  it("completes the declared argument of the current position: choices, then the completer's values", async () => {
    const env = await comp(['deploy', '']);
    expect(env.values).toEqual(['staging', 'production']);
    expect(env.descriptions.staging).toBe('target environment');
    expect(env.directive).toBe(NoFileComp);
    const svc = await comp(['deploy', 'staging', '']);
    expect(svc.values).toEqual(['api', 'web', 'worker']);
    // variadic: every further position uses the same declaration
    expect((await comp(['deploy', 'staging', 'api', 'w'])).values).toEqual(['web', 'worker']);
  });

  it('asks the completer at completion time (dynamic values)', async () => {
    const r = await comp(['deploy', 'production', ''], { env: {} });
    expect(r.values).toEqual(['api', 'web', 'worker']);
    process.env.COMPLETION_FIXTURE_SERVICES = 'billing,search';
    try {
      expect((await comp(['deploy', 'production', ''])).values).toEqual(['billing', 'search']);
    } finally {
      delete process.env.COMPLETION_FIXTURE_SERVICES;
    }
  });

  it('uses validArgs, and per-position declarations', async () => {
    expect((await comp(['config', 'get', ''])).values).toEqual(['color', 'editor', 'pager']);
    expect((await comp(['config', 'get', 'e'])).values).toEqual(['editor']);
    expect((await comp(['config', 'set', 'p'])).values).toEqual(['pager']);
    expect((await comp(['config', 'set', 'color', ''])).values).toEqual(['on', 'off']);
    expect((await comp(['config', 'set', 'color', 'o'])).values).toEqual(['on', 'off']);
  });

  it('a free-form positional gets file completion; nothing once the declared arguments are used up', async () => {
    const free = await comp(['logs', '']);
    expect(free.values).toEqual([]);
    expect(free.directive).toBe(Default);
    const done = await comp(['logs', 'app.log', '']);
    expect(done.directive).toBe(NoFileComp);
    // a custom validator may accept anything: files stay on
    expect((await comp(['exec', 'ls', ''])).directive).toBe(Default);
  });

  it('a group does not take positionals: only its subcommands', async () => {
    const r = await comp(['config', 'x']);
    expect(r.values).toEqual([]);
    expect(r.directive).toBe(NoFileComp);
  });

  it('after --, every word is a positional: no flags, no subcommands', async () => {
    expect((await comp(['deploy', '--', ''])).values).toEqual(['staging', 'production']);
    const flagLike = await comp(['deploy', '--', '--re']);
    expect(flagLike.values).toEqual([]);
    expect((await comp(['deploy', '--', 'staging', '-'])).values).toEqual([]);
    expect((await comp(['deploy', '--', 'staging', ''])).values).toEqual(['api', 'web', 'worker']);
    expect((await comp(['--', 'de'])).values).toEqual([]);
  });
});

describe('__complete: output and errors', () => {
  it('writes raw lines in every mode, never an envelope', async () => {
    const json = await comp(['deploy', '--region', 'e']);
    const human = await comp(['deploy', '--region', 'e'], { tty: true });
    const agent = await comp(['deploy', '--region', 'e'], { env: { AGENT_MODE: '1' } });
    for (const r of [json, human, agent]) {
      expect(r.stdout).toBe('eu-west\n:4\n');
      expect(r.stderr).toBe('');
    }
  });

  it('a failing completer prints only :1 (exit 0), one line on stderr, no stack', async () => {
    const r = await runCli(completionTree(), ['__complete', '--', 'broken', '']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`:${ErrorBit}\n`);
    expect(r.stderr).toBe('[Error] backend unreachable\n');
    expect(r.stderr).not.toMatch(/\bat\s/);
  });

  it('a completer returning a non-array is an error too', async () => {
    const root = new Command({
      use: 'x',
      commands: [
        new Command({ use: 'y <a>', args: [{ name: 'a', completer: (() => 'nope') as never }], run: () => 1 }),
      ],
    });
    root.addCommand(...completionCommands(root));
    const r = await runCli(root, ['__complete', '--', 'y', '']);
    expect(r.stdout).toBe(':1\n');
  });

  it('a completer sees the flags and named positionals already on the line, typed as the handler gets them', async () => {
    const seen: unknown[] = [];
    const root = new Command({
      use: 'x',
      commands: [
        new Command({
          use: 'cp <count> <src> [dst...]',
          args: [
            { name: 'count', type: 'int' },
            { name: 'src' },
            { name: 'dst', required: false, variadic: true, completer: (_p, c) => (seen.push(c), ['d']) },
          ],
          flags: {
            'dry-level': { type: 'int', short: 'l' },
            tag: { type: 'stringSlice' },
            force: { type: 'bool' },
            zone: { type: 'string', completer: (_p: string, c: CompletionContext) => (seen.push(c), ['z']) },
          },
          run: () => 1,
        }),
      ],
    });
    root.addCommand(...completionCommands(root));
    const line = ['cp', '-l', '3', '--tag', 'a,b', '--tag=c', '--force', '2', 'from', 'to1'];
    expect((await runCli(root, ['__complete', '--', ...line, ''])).stdout).toBe('d\n:4\n');
    expect((await runCli(root, ['__complete', '--', ...line, '--zone', ''])).stdout).toBe('z\n:4\n');
    const flags = { dryLevel: 3, tag: ['a', 'b', 'c'], force: true };
    expect(seen).toEqual([
      {
        args: ['2', 'from', 'to1'],
        commandPath: 'x cp',
        flags,
        argValues: { count: 2, src: 'from', dst: ['to1'] },
        word: '',
      },
      {
        args: ['2', 'from', 'to1'],
        commandPath: 'x cp',
        flags,
        argValues: { count: 2, src: 'from', dst: ['to1'] },
        word: '',
      },
    ]);
    // the raw word, of which the partial is the value part
    seen.length = 0;
    await runCli(root, ['__complete', '--', 'cp', '--zone=eu-w']); // 'z' is then filtered out by the partial
    expect(seen).toMatchObject([{ word: '--zone=eu-w' }]);
    // a value still being typed (or a wrong one) is left out, not an error
    seen.length = 0;
    await runCli(root, ['__complete', '--', 'cp', '-l', 'x', '2', 'from', '']);
    expect(seen).toEqual([
      { args: ['2', 'from'], commandPath: 'x cp', flags: {}, argValues: { count: 2, src: 'from' }, word: '' },
    ]);
  });

  it('complete() is usable directly', async () => {
    const r = await complete(completionTree(), ['deploy', '--region', 'us']);
    expect(r).toEqual({ candidates: [{ value: 'us-east' }], directive: NoFileComp });
  });
});

describe('completion command', () => {
  it('has one subcommand per shell, all built-in, read-only and opaque; __complete hidden', () => {
    const root = new Command({ use: 'prog', run: () => 1 });
    const [completion, internal] = completionCommands(root);
    expect(completion!.name).toBe('completion');
    expect(completion!.commands().map((c) => c.name)).toEqual(['bash', 'fish', 'powershell', 'zsh']);
    for (const c of [completion!, ...completion!.commands(), internal!]) {
      expect(c.annotations[BUILTIN_ANNOTATION]).toBe('true');
      expect(c.effects).toBe('read_only');
      expect(c.output).toEqual({ kind: 'opaque', mediaType: 'text/plain' });
    }
    expect(internal!.name).toBe('__complete');
    expect(internal!.hidden).toBe(true);
    expect(completion!.hidden).toBe(false);
  });

  it.each(SHELLS)('completion %s prints the script verbatim, for the root name, in every mode', async (shell) => {
    const json = await runCli(completionTree(), ['completion', shell]);
    const human = await runCli(completionTree(), ['completion', shell], { tty: true });
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(completionScript(shell, 'axcomp'));
    expect(human.stdout).toBe(json.stdout);
    expect(json.stdout).toContain('__complete --');
    expect(json.stdout).toContain(
      {
        bash: 'complete -F _axcomp axcomp',
        zsh: 'compdef _axcomp axcomp',
        fish: 'complete -c axcomp -e',
        powershell: "Register-ArgumentCompleter -Native -CommandName 'axcomp'",
      }[shell],
    );
  });

  it('`completion pwsh` is `completion powershell` (PowerShell 7 is run as pwsh)', async () => {
    const pwsh = await runCli(completionTree(), ['completion', 'pwsh']);
    expect(pwsh.code).toBe(0);
    expect(pwsh.stdout).toBe(completionScript('powershell', 'axcomp'));
    expect((await comp(['completion', ''])).values).not.toContain('pwsh'); // an alias: not offered, as Cobra offers none
  });

  it('an unknown shell is an unknown command of `completion`, with the shells as suggestions (not "takes no arguments")', async () => {
    const r = await runCli(completionTree(), ['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const err = (
      JSON.parse(r.stderr.trim()) as {
        error: { message: string; context: Record<string, unknown>; suggestions?: string[] };
      }
    ).error;
    expect(err.message).toBe('unknown command "tcsh" for "axcomp completion"');
    expect(err.context.reason).toBe('unknown_command');
    expect(err.suggestions).toEqual(['axcomp completion bash', 'axcomp completion fish', 'axcomp completion zsh']);
  });

  it('--no-descriptions turns descriptions off in the script', async () => {
    const on = await runCli(completionTree(), ['completion', 'bash']);
    const off = await runCli(completionTree(), ['completion', 'bash', '--no-descriptions']);
    expect(on.stdout).toContain('local descriptions=1');
    expect(off.stdout).toContain('local descriptions=0');
  });

  it('a bare `completion` prints its help, listing the shells', async () => {
    const r = await runCli(completionTree(), ['completion'], { tty: true });
    expect(r.code).toBe(0);
    for (const s of SHELLS) expect(r.stdout).toContain(s);
  });

  it('is listed in the root help but never an MCP tool', async () => {
    const help = await runCli(completionTree(), ['--help'], { tty: true });
    expect(help.stdout).toMatch(/\n\s+completion\s+Generate the autocompletion script/);
    expect(help.stdout).not.toContain('__complete');
    const mcp = await runCli(completionTree(), ['__schema', '--as=mcp']);
    const names = (JSON.parse(mcp.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain('deploy');
    expect(names.some((n) => n.startsWith('completion') || n.includes('complete'))).toBe(false);
  });

  it('quotes an unusual program name in the script and derives safe function names', () => {
    expect(completionScript('bash', "my prog's")).toContain(`complete -F _my_prog_s 'my prog'\\''s'`);
    expect(completionScript('fish', 'a.b')).toContain('complete -c a.b -e');
    expect(completionScript('fish', 'a.b')).toContain('function __a_b_perform_completion');
    expect(() => completionScript('tcsh' as never, 'x')).toThrow(/unknown shell/);
  });
});
