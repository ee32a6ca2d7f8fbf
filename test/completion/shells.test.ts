/**
 * The generated completion scripts in the real shells: bash, zsh and fish source the script printed
 * by `axcomp completion <shell>` and complete partial command lines; the candidates are asserted.
 *
 * `axcomp` is a tiny wrapper on PATH (in a temp dir) that execs the fixture CLI
 * (test/fixtures/completion-cli.ts) with node + tsx, so every TAB really runs `axcomp __complete`.
 * `axfake` is a second wrapper that prints a canned `__complete` answer and records the argv it got,
 * to check how each script sends the words and applies each directive.
 *
 * - bash (no bash-completion loaded): the completion function is called with COMP_WORDS, COMP_CWORD,
 *   COMP_LINE and COMP_POINT set the way readline sets them (words also split at `=`); COMPREPLY is
 *   printed. compopt is stubbed to record its options (it only works inside real completion).
 * - zsh: test/fixtures/completion-zsh-capture.zsh drives an interactive `zsh -f -i` through zsh's own
 *   zpty module, runs compinit and the script, sends `<line><TAB>` and prints every match the real
 *   completion system adds (compadd wrapped).
 * - fish: `fish -c 'source script; complete -C "<line>"'`.
 * A shell that is not installed is skipped (the describe title says so); install with
 * `apt-get install -y zsh fish`.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../lib/completion/scripts.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/completion-cli.ts', import.meta.url));
const ZSH_CAPTURE = fileURLToPath(new URL('../fixtures/completion-zsh-capture.zsh', import.meta.url));
const TSX = import.meta.resolve('tsx');
const SHELL_TIMEOUT = 20_000;

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}
const available = { bash: which('bash'), zsh: which('zsh'), fish: which('fish') };
const title = (shell: keyof typeof available) =>
  available[shell]
    ? `${shell} (real shell: ${available[shell]})`
    : `${shell} — SKIPPED: ${shell} is not installed (apt-get install -y ${shell})`;

let dir: string;
let work: string;
let env: Record<string, string>;
const scripts: Record<string, string> = {};

/** Runs a program with the test PATH, in the work dir; resolves with stdout (rejects with stderr on failure). */
function run(file: string, args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: work, env: { ...env, ...extraEnv }, timeout: SHELL_TIMEOUT - 2000, maxBuffer: 1 << 22 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** `'…'` quoting for POSIX shells. */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ax-completion-'));
  const bin = join(dir, 'bin');
  work = join(dir, 'work');
  mkdirSync(bin);
  mkdirSync(join(work, 'sub'), { recursive: true });
  writeFileSync(join(work, 'notes.txt'), '');
  writeFileSync(join(work, 'data.json'), '{}');
  writeFileSync(
    join(bin, 'axcomp'),
    `#!/bin/sh\nexec ${sq(process.execPath)} --import ${sq(TSX)} ${sq(FIXTURE)} "$@"\n`,
    { mode: 0o755 },
  );
  writeFileSync(
    join(bin, 'axfake'),
    `#!/bin/sh\n# Records its argv, one [arg] each, and prints the canned answer.\nfor a in "$@"; do printf '[%s]' "$a"; done > "$AX_FAKE_ARGS"\nprintf '%b' "$AX_FAKE_OUTPUT"\nexit "\${AX_FAKE_EXIT:-0}"\n`,
    { mode: 0o755 },
  );
  env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: dir,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    AX_FAKE_ARGS: join(dir, 'fake-args'),
  };
  // The real command prints the scripts (end to end); axfake's are generated in-process.
  await Promise.all(
    (['bash', 'zsh', 'fish'] as const).map(async (shell) => {
      const text = await run(join(bin, 'axcomp'), ['completion', shell]);
      scripts[shell] = join(dir, `axcomp.${shell}`);
      writeFileSync(scripts[shell], text);
      scripts[`fake-${shell}`] = join(dir, `axfake.${shell}`);
      writeFileSync(scripts[`fake-${shell}`], completionScript(shell, 'axfake'));
    }),
  );
}, 30_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const fakeArgs = () => readFileSync(join(dir, 'fake-args'), 'utf8');

/** Parses a candidate as a shell shows it: `value  (description)`, `value -- description`, `value\tdescription`. */
function parse(line: string): { value: string; description: string } {
  const tab = line.indexOf('\t');
  if (tab >= 0) return { value: line.slice(0, tab), description: line.slice(tab + 1) };
  let m = /^(.*?) -- (.*)$/.exec(line);
  if (m) return { value: m[1]!, description: m[2]!.trim() };
  m = /^(\S+)\s{2,}\((.*)\)$/.exec(line);
  if (m) return { value: m[1]!, description: m[2]! };
  return { value: line, description: '' };
}

interface Answer {
  values: string[];
  descriptions: Record<string, string>;
  raw: string[];
}
function answer(lines: string[]): Answer {
  const descriptions: Record<string, string> = {};
  const values = lines.map((l) => {
    const { value, description } = parse(l);
    descriptions[value] = description;
    return value;
  });
  return { values, descriptions, raw: lines };
}
/** Splits the harness output into one block per line completed (blocks end with `---`). */
function blocks(out: string): Answer[] {
  const parts = out.split(/^---$/m).map((b) => b.split('\n').filter((l) => l !== ''));
  parts.pop();
  return parts.map(answer);
}
const sorted = (a: string[]) => [...a].sort();

// ---------------------------------------------------------------------------------------------- bash

/**
 * COMP_WORDS as readline builds them: split at blanks outside quotes, with `=` and `:` (outside
 * quotes) as words of their own; the raw text is kept, quotes included. A trailing blank starts an
 * empty word.
 */
function compWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote = '';
  let started = false;
  const flush = () => {
    if (started) words.push(cur);
    cur = '';
    started = false;
  };
  for (const ch of line) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = '';
    } else if (ch === ' ') flush();
    else if (ch === '=' || ch === ':') {
      flush();
      words.push(ch);
    } else {
      if (ch === '"' || ch === "'") quote = ch;
      cur += ch;
      started = true;
    }
  }
  if (started || line.endsWith(' ')) words.push(cur);
  return words;
}

/** Completes each line in one bash process; per line: COMPREPLY entries, then `compopt …` records. */
async function bash(
  script: string,
  lines: string[],
  extraEnv: Record<string, string> = {},
  program = 'axcomp',
): Promise<Answer[]> {
  const calls = lines
    .map((line) => {
      const words = compWords(line);
      return `t ${sq(line)} ${words.length - 1} ${words.map(sq).join(' ')}`;
    })
    .join('\n');
  const code = `
declare -F _init_completion >/dev/null && { echo 'bash-completion is loaded' >&2; exit 9; }
source ${sq(script)}
compopt() { __opts+=("compopt $*"); }
t() {
  COMP_LINE=$1; COMP_POINT=\${#COMP_LINE}; COMP_CWORD=$2; shift 2; COMP_WORDS=("$@")
  COMPREPLY=(); __opts=()
  _${program}
  printf '%s\\n' "\${COMPREPLY[@]}" "\${__opts[@]}" ---
}
${calls}
`;
  const out = await run('bash', ['--norc', '--noprofile', '-c', code], extraEnv);
  return blocks(out);
}

describe.skipIf(!available.bash)(title('bash'), () => {
  it(
    'completes commands (with descriptions), never aliases (Cobra) or hidden ones',
    { timeout: SHELL_TIMEOUT },
    async () => {
      const [all, d] = await bash(scripts.bash!, ['axcomp ', 'axcomp d']);
      expect(all!.values).toEqual(
        expect.arrayContaining(['broken', 'completion', 'config', 'deploy', 'exec', 'help', 'logs']),
      );
      for (const absent of ['internal-debug', 'legacy', '__complete', '__schema', 'dp', 'ship'])
        expect(all!.values).not.toContain(absent);
      expect(all!.descriptions.deploy).toBe('Deploy services to an environment');
      expect(d!.values).toEqual(['deploy']);
    },
  );

  it(
    'completes flags (long, shorthand, inherited) and flag values from choices, --flag=value included',
    { timeout: SHELL_TIMEOUT },
    async () => {
      const [re, dash, eq, choices] = await bash(scripts.bash!, [
        'axcomp deploy --re',
        'axcomp config get -',
        'axcomp deploy --region=e',
        'axcomp deploy -r ',
      ]);
      expect(re!.values).toEqual(['--region', '--replicas']);
      expect(re!.descriptions['--region']).toBe('region to deploy to');
      expect(dash!.values).toEqual(expect.arrayContaining(['--help', '-h', '--profile', '-p', '--verbose']));
      expect(eq!.raw).toEqual(['eu-west']); // readline replaces only the text after '='
      expect(sorted(choices!.values)).toEqual(['ap-south', 'eu-west', 'us-east']);
    },
  );

  it("uses a dynamic completer's values, for flags and positionals", { timeout: SHELL_TIMEOUT }, async () => {
    const [svc, prof] = await bash(scripts.bash!, ['axcomp deploy staging ', 'axcomp deploy --profile p'], {
      COMPLETION_FIXTURE_SERVICES: 'alpha,beta',
    });
    expect(svc!.values).toEqual(['alpha', 'beta']);
    expect(prof!.raw).toEqual(['prod']);
  });

  it('falls back to files for a free positional', { timeout: SHELL_TIMEOUT }, async () => {
    const [files] = await bash(scripts.bash!, ['axcomp logs ']);
    expect(files!.raw).toEqual(expect.arrayContaining(['data.json', 'notes.txt', 'sub', 'compopt -o filenames']));
  });

  it(
    'sends the words after `__complete --`, glued back at = and unquoted; applies every directive',
    { timeout: SHELL_TIMEOUT },
    async () => {
      const fake = scripts['fake-bash']!;
      const [eq] = await bash(
        fake,
        [`axfake run --out=x "my file" --level=`],
        { AX_FAKE_OUTPUT: 'hi\\nho\\n:0\\n' },
        'axfake',
      );
      expect(fakeArgs()).toBe('[__complete][--][run][--out=x][my file][--level=]');
      // --level=: the bare values come back as --level=hi, and readline replaces only what follows '='
      expect(eq!.raw).toEqual(['hi', 'ho']);

      const cases: [string, string, string[]][] = [
        ['x\\n:2\\n', 'axfake x', ['x', 'compopt -o nospace']],
        ['b\\na\\n:32\\n', 'axfake ', ['b', 'a', 'compopt -o nosort']],
        ['json\\n:8\\n', 'axfake ', ['data.json', 'sub', 'compopt -o filenames']],
        [':16\\n', 'axfake ', ['sub', 'compopt -o filenames']],
        ['a\\n:1\\n', 'axfake ', []],
        [':4\\n', 'axfake ', []],
        ['garbage', 'axfake ', []],
      ];
      for (const [output, line, expected] of cases) {
        const [r] = await bash(fake, [line], { AX_FAKE_OUTPUT: output }, 'axfake');
        expect({ output, got: r!.raw }).toEqual({ output, got: expected });
      }
    },
  );
});

// ----------------------------------------------------------------------------------------------- zsh

async function zsh(script: string, lines: string[], extraEnv: Record<string, string> = {}): Promise<Answer[]> {
  return blocks(await run('zsh', ['-f', ZSH_CAPTURE, script, ...lines], extraEnv));
}

describe.skipIf(!available.zsh)(title('zsh'), () => {
  it(
    'completes commands (with descriptions), never aliases (Cobra) or hidden ones',
    { timeout: SHELL_TIMEOUT },
    async () => {
      const [all, d] = await zsh(scripts.zsh!, ['axcomp ', 'axcomp d']);
      expect(all!.values).toEqual(
        expect.arrayContaining(['broken', 'completion', 'config', 'deploy', 'exec', 'help', 'logs']),
      );
      for (const absent of ['internal-debug', 'legacy', '__complete', '__schema', 'dp', 'ship'])
        expect(all!.values).not.toContain(absent);
      expect(all!.descriptions.deploy).toBe('Deploy services to an environment');
      expect(sorted(d!.values)).toEqual(['deploy']);
    },
  );

  it('completes flags and flag values, --flag=value included', { timeout: SHELL_TIMEOUT }, async () => {
    const [re, eq, choices] = await zsh(scripts.zsh!, [
      'axcomp deploy --re',
      'axcomp deploy --region=',
      'axcomp deploy -r ',
    ]);
    expect(sorted(re!.values)).toEqual(['--region', '--replicas']);
    expect(re!.descriptions['--replicas']).toBe('number of replicas');
    expect(sorted(eq!.values)).toEqual(['--region=ap-south', '--region=eu-west', '--region=us-east']);
    expect(sorted(choices!.values)).toEqual(['ap-south', 'eu-west', 'us-east']);
  });

  it("uses a dynamic completer's values (with descriptions)", { timeout: SHELL_TIMEOUT }, async () => {
    const [svc, prof] = await zsh(scripts.zsh!, ['axcomp deploy staging ', 'axcomp deploy --profile '], {
      COMPLETION_FIXTURE_SERVICES: 'alpha,beta',
    });
    expect(sorted(svc!.values)).toEqual(['alpha', 'beta']);
    expect(sorted(prof!.values)).toEqual(['dev', 'prod', 'staging']);
    expect(prof!.descriptions.dev).toBe('local development');
  });

  it(
    'applies the directives: files, extensions, directories, nothing on error',
    { timeout: SHELL_TIMEOUT },
    async () => {
      // (the capture prints matches as added: directories without their / suffix)
      const [files] = await zsh(scripts.zsh!, ['axcomp logs ']);
      expect(sorted(files!.values)).toEqual(['data.json', 'notes.txt', 'sub']);
      const [ext] = await zsh(scripts['fake-zsh']!, ['axfake x '], { AX_FAKE_OUTPUT: 'json\\n:8\\n' });
      expect(fakeArgs()).toBe('[__complete][--][x][]');
      expect(sorted(ext!.values)).toEqual(['data.json', 'sub']);
      const [dirs] = await zsh(scripts['fake-zsh']!, ['axfake '], { AX_FAKE_OUTPUT: ':16\\n' });
      expect([...new Set(dirs!.values)]).toEqual(['sub']);
      const [none] = await zsh(scripts['fake-zsh']!, ['axfake '], { AX_FAKE_OUTPUT: 'a\\n:1\\n' });
      expect(none!.values).toEqual([]);
    },
  );
});

// ---------------------------------------------------------------------------------------------- fish

async function fish(script: string, lines: string[], extraEnv: Record<string, string> = {}): Promise<Answer[]> {
  const program = `source ${sq(script)}; for l in $argv; complete -C "$l"; echo ---; end`;
  return blocks(await run('fish', ['--no-config', '-c', program, ...lines], extraEnv));
}

describe.skipIf(!available.fish)(title('fish'), () => {
  it(
    'completes commands (with descriptions), never aliases (Cobra) or hidden ones',
    { timeout: SHELL_TIMEOUT },
    async () => {
      const [all, d] = await fish(scripts.fish!, ['axcomp ', 'axcomp d']);
      expect(all!.values).toEqual(
        expect.arrayContaining(['broken', 'completion', 'config', 'deploy', 'exec', 'help', 'logs']),
      );
      for (const absent of ['internal-debug', 'legacy', '__complete', '__schema', 'dp', 'ship'])
        expect(all!.values).not.toContain(absent);
      expect(all!.descriptions.deploy).toBe('Deploy services to an environment');
      expect(d!.values).toEqual(['deploy']);
    },
  );

  it('completes flags and flag values, --flag=value included', { timeout: SHELL_TIMEOUT }, async () => {
    const [re, eq, choices] = await fish(scripts.fish!, [
      'axcomp deploy --re',
      'axcomp deploy --region=e',
      'axcomp deploy -r ',
    ]);
    expect(sorted(re!.values)).toEqual(['--region', '--replicas']);
    expect(re!.descriptions['--region']).toBe('region to deploy to');
    expect(eq!.values).toEqual(['--region=eu-west']);
    expect(sorted(choices!.values)).toEqual(['ap-south', 'eu-west', 'us-east']);
  });

  it("uses a dynamic completer's values (with descriptions)", { timeout: SHELL_TIMEOUT }, async () => {
    const [svc, prof] = await fish(scripts.fish!, ['axcomp deploy staging ', 'axcomp deploy --profile '], {
      COMPLETION_FIXTURE_SERVICES: 'alpha,beta',
    });
    expect(sorted(svc!.values)).toEqual(['alpha', 'beta']);
    expect(sorted(prof!.values)).toEqual(['dev', 'prod', 'staging']);
    expect(prof!.descriptions.prod).toBe('production account');
  });

  it(
    'falls back to files only when allowed; sends the words after `__complete --`',
    { timeout: SHELL_TIMEOUT },
    async () => {
      const [files, none] = await fish(scripts.fish!, ['axcomp logs ', 'axcomp deploy --replicas ']);
      expect(sorted(files!.values)).toEqual(['data.json', 'notes.txt', 'sub/']);
      expect(none!.values).toEqual([]);
      const [err] = await fish(scripts['fake-fish']!, ["axfake run 'my file' --x=y "], { AX_FAKE_OUTPUT: 'a\\n:1\\n' });
      expect(fakeArgs()).toBe('[__complete][--][run][my file][--x=y][]');
      expect(err!.values).toEqual([]);
    },
  );
});
