/**
 * A command has one place in one tree (Cobra builds a tree, not a graph): `addCommand` refuses a
 * command that already has a parent — another one or this one — and a command's own ancestor, with
 * both command paths in the message; `removeCommand` frees a command to be added elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { Command } from '../../lib/index.ts';

const tree = () => {
  const root = new Command({ use: 'app' });
  const a = new Command({ use: 'a' });
  const b = new Command({ use: 'b' });
  const shared = new Command({ use: 'status', run: () => ({ ok: true }) });
  root.addCommand(a, b);
  a.addCommand(shared);
  return { root, a, b, shared };
};

describe('addCommand: one place in one tree', () => {
  it('refuses a command already under another parent, naming both paths', () => {
    const { b, shared } = tree();
    expect(() => b.addCommand(shared)).toThrow(
      new TypeError(
        'Command "app a status" is already a child of "app a"; it cannot also be added under "app b" (build a second Command for it)',
      ),
    );
    expect(b.commands()).toEqual([]);
    expect(shared.commandPath()).toBe('app a status');
  });

  it('refuses the same command added twice to one parent', () => {
    const { a, shared } = tree();
    expect(() => a.addCommand(shared)).toThrow(/already a child of "app a"/);
    expect(a.commands()).toEqual([shared]);
  });

  it('refuses an ancestor as a child (a loop), and the command itself', () => {
    const { root, a } = tree();
    const leaf = a.findChild('status')!;
    expect(() => leaf.addCommand(root)).toThrow(/cannot be added under its own descendant "app a status"/);
    expect(() => a.addCommand(a)).toThrow(/cannot add a command to itself/);
  });

  it('a removed command may be added elsewhere', () => {
    const { a, b, shared } = tree();
    a.removeCommand(shared);
    b.addCommand(shared);
    expect(shared.commandPath()).toBe('app b status');
    expect(a.commands()).toEqual([]);
  });
});
