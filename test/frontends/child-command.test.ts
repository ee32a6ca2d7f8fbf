/**
 * The command a front-end call's child is started with (docs/frontends.md#how-a-call-runs): a
 * script again through Node, with this process's Node options (no debugger port) and the parent
 * watch; a single executable application or a `bun build --compile` binary as itself, its words
 * alone (its `argv[1]` is the binary or a `/$bunfs/` path, no script to give Node); a wrapped bin
 * through Node. The binaries are simulated (bun's global, node:sea's answer), as building one needs
 * postject or bun.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childCommand } from '../../frontends/shared/child-call.ts';

const argv = [...process.argv];
const execArgv = [...process.execArgv];
afterEach(() => {
  process.argv.splice(0, process.argv.length, ...argv);
  process.execArgv.splice(0, process.execArgv.length, ...execArgv);
  delete (globalThis as { Bun?: unknown }).Bun;
  vi.restoreAllMocks();
});

const WORDS = ['check', '--file=b.txt'];

describe("a front-end call's child command", () => {
  it('a script: Node, its options less the debugger, the parent watch, the script, the words', () => {
    process.argv.splice(1, process.argv.length - 1, '/app/prog.js');
    process.execArgv.splice(0, process.execArgv.length, '--enable-source-maps', '--inspect=9229');
    const c = childCommand(WORDS);
    expect(c.command).toBe(process.execPath);
    expect(c.args[0]).toBe('--import');
    expect(c.args[1]).toMatch(/^data:text\/javascript,/);
    expect(c.args.slice(2)).toEqual(['--enable-source-maps', '/app/prog.js', ...WORDS]);
  });

  it('a bun build --compile binary: the binary itself with the words, never its /$bunfs/ entry', () => {
    (globalThis as { Bun?: unknown }).Bun = {};
    process.argv.splice(1, process.argv.length - 1, '/$bunfs/root/prog');
    expect(childCommand(WORDS)).toEqual({ command: process.execPath, args: WORDS });
  });

  it('a Node single executable: the binary itself with the words, never argv[1] as a script', () => {
    const real = process.getBuiltinModule.bind(process);
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) =>
      id === 'node:sea' ? { isSea: () => true } : real(id as never)) as typeof process.getBuiltinModule);
    process.argv.splice(1, process.argv.length - 1, process.execPath);
    expect(childCommand(WORDS)).toEqual({ command: process.execPath, args: WORDS });
  });

  it('a wrapped bin: Node, the parent watch, the bin, the words as the bin is given them', () => {
    const c = childCommand(WORDS, { entry: '/bin/tool.js', words: (w) => [...w, 'x'] });
    expect(c.command).toBe(process.execPath);
    expect(c.args.slice(2)).toEqual(['/bin/tool.js', ...WORDS, 'x']);
  });

  it('no script to start again (node -e): a validation_error naming why', () => {
    process.argv.splice(1, process.argv.length - 1);
    expect(() => childCommand(WORDS)).toThrow(expect.objectContaining({ kind: 'validation_error' }));
  });
});
