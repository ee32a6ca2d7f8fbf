/**
 * Port of spf13/cobra flag_groups_test.go (TestValidateFlagGroups): every case, Cobra's inputs and
 * expected messages; groups are declared with ax-ts's markFlags* methods (same names as Cobra's).
 */
import { describe, expect, it } from 'vitest';
import { Command, type FlagSpec } from '../../../lib/index.ts';
import { emptyRun, executeCommand, jsonError } from './harness.ts';

function getCmd(): Command {
  const str: FlagSpec = { type: 'string', default: '' };
  const c = new Command({
    use: 'testcmd',
    run: emptyRun,
    flags: { a: str, b: str, c: str, d: str },
    persistentFlags: { e: str, f: str, g: str },
  });
  c.addCommand(new Command({ use: 'subcmd', run: emptyRun, flags: { subonly: str } }));
  return c;
}

interface Case {
  desc: string;
  flagGroupsRequired?: string[];
  flagGroupsOneRequired?: string[];
  flagGroupsExclusive?: string[];
  subCmdFlagGroupsRequired?: string[];
  subCmdFlagGroupsOneRequired?: string[];
  subCmdFlagGroupsExclusive?: string[];
  args?: string[];
  expectErr?: string;
}

const testcases: Case[] = [
  { desc: 'No flags no problem' },
  {
    desc: 'No flags no problem even with conflicting groups',
    flagGroupsRequired: ['a b'],
    flagGroupsExclusive: ['a b'],
  },
  {
    desc: 'Required flag group not satisfied',
    flagGroupsRequired: ['a b c'],
    args: ['--a=foo'],
    expectErr: 'if any flags in the group [a b c] are set they must all be set; missing [b c]',
  },
  {
    desc: 'One-required flag group not satisfied',
    flagGroupsOneRequired: ['a b'],
    args: ['--c=foo'],
    expectErr: 'at least one of the flags in the group [a b] is required',
  },
  {
    desc: 'Exclusive flag group not satisfied',
    flagGroupsExclusive: ['a b c'],
    args: ['--a=foo', '--b=foo'],
    expectErr: 'if any flags in the group [a b c] are set none of the others can be; [a b] were all set',
  },
  {
    desc: 'Multiple required flag group not satisfied returns first error',
    flagGroupsRequired: ['a b c', 'a d'],
    args: ['--c=foo', '--d=foo'],
    expectErr: 'if any flags in the group [a b c] are set they must all be set; missing [a b]',
  },
  {
    desc: 'Multiple one-required flag group not satisfied returns first error',
    flagGroupsOneRequired: ['a b', 'd e'],
    args: ['--c=foo', '--f=foo'],
    expectErr: 'at least one of the flags in the group [a b] is required',
  },
  {
    desc: 'Multiple exclusive flag group not satisfied returns first error',
    flagGroupsExclusive: ['a b c', 'a d'],
    args: ['--a=foo', '--c=foo', '--d=foo'],
    expectErr: 'if any flags in the group [a b c] are set none of the others can be; [a c] were all set',
  },
  {
    desc: 'Validation of required groups occurs on groups in sorted order',
    flagGroupsRequired: ['a d', 'a b', 'a c'],
    args: ['--a=foo'],
    expectErr: 'if any flags in the group [a b] are set they must all be set; missing [b]',
  },
  {
    desc: 'Validation of one-required groups occurs on groups in sorted order',
    flagGroupsOneRequired: ['d e', 'a b', 'f g'],
    args: ['--c=foo'],
    expectErr: 'at least one of the flags in the group [a b] is required',
  },
  {
    desc: 'Validation of exclusive groups occurs on groups in sorted order',
    flagGroupsExclusive: ['a d', 'a b', 'a c'],
    args: ['--a=foo', '--b=foo', '--c=foo'],
    expectErr: 'if any flags in the group [a b] are set none of the others can be; [a b] were all set',
  },
  {
    desc: 'Persistent flags utilize required and exclusive groups and can fail required groups',
    flagGroupsRequired: ['a e', 'e f'],
    flagGroupsExclusive: ['f g'],
    args: ['--a=foo', '--f=foo', '--g=foo'],
    expectErr: 'if any flags in the group [a e] are set they must all be set; missing [e]',
  },
  {
    desc: 'Persistent flags utilize one-required and exclusive groups and can fail one-required groups',
    flagGroupsOneRequired: ['a b', 'e f'],
    flagGroupsExclusive: ['e f'],
    args: ['--e=foo'],
    expectErr: 'at least one of the flags in the group [a b] is required',
  },
  {
    desc: 'Persistent flags utilize required and exclusive groups and can fail mutually exclusive groups',
    flagGroupsRequired: ['a e', 'e f'],
    flagGroupsExclusive: ['f g'],
    args: ['--a=foo', '--e=foo', '--f=foo', '--g=foo'],
    expectErr: 'if any flags in the group [f g] are set none of the others can be; [f g] were all set',
  },
  {
    desc: 'Persistent flags utilize required and exclusive groups and can pass',
    flagGroupsRequired: ['a e', 'e f'],
    flagGroupsExclusive: ['f g'],
    args: ['--a=foo', '--e=foo', '--f=foo'],
  },
  {
    desc: 'Persistent flags utilize one-required and exclusive groups and can pass',
    flagGroupsOneRequired: ['a e', 'e f'],
    flagGroupsExclusive: ['f g'],
    args: ['--a=foo', '--e=foo', '--f=foo'],
  },
  {
    desc: 'Subcmds can use required groups using inherited flags',
    subCmdFlagGroupsRequired: ['e subonly'],
    args: ['subcmd', '--e=foo', '--subonly=foo'],
  },
  {
    desc: 'Subcmds can use one-required groups using inherited flags',
    subCmdFlagGroupsOneRequired: ['e subonly'],
    args: ['subcmd', '--e=foo', '--subonly=foo'],
  },
  {
    desc: 'Subcmds can use one-required groups using inherited flags and fail one-required groups',
    subCmdFlagGroupsOneRequired: ['e subonly'],
    args: ['subcmd'],
    expectErr: 'at least one of the flags in the group [e subonly] is required',
  },
  {
    desc: 'Subcmds can use exclusive groups using inherited flags',
    subCmdFlagGroupsExclusive: ['e subonly'],
    args: ['subcmd', '--e=foo', '--subonly=foo'],
    expectErr: 'if any flags in the group [e subonly] are set none of the others can be; [e subonly] were all set',
  },
  {
    desc: 'Subcmds can use exclusive groups using inherited flags and pass',
    subCmdFlagGroupsExclusive: ['e subonly'],
    args: ['subcmd', '--e=foo'],
  },
  {
    desc: 'Flag groups not applied if not found on invoked command',
    subCmdFlagGroupsRequired: ['e subonly'],
    args: ['--e=foo'],
  },
];

const split = (g: string) => g.split(' ');

describe('cobra flag_groups_test.go: TestValidateFlagGroups', () => {
  it.each(testcases)('$desc', async (tc) => {
    const c = getCmd();
    const sub = c.findChild('subcmd')!;
    for (const g of tc.flagGroupsRequired ?? []) c.markFlagsRequiredTogether(...split(g));
    for (const g of tc.flagGroupsOneRequired ?? []) c.markFlagsOneRequired(...split(g));
    for (const g of tc.flagGroupsExclusive ?? []) c.markFlagsMutuallyExclusive(...split(g));
    for (const g of tc.subCmdFlagGroupsRequired ?? []) sub.markFlagsRequiredTogether(...split(g));
    for (const g of tc.subCmdFlagGroupsOneRequired ?? []) sub.markFlagsOneRequired(...split(g));
    for (const g of tc.subCmdFlagGroupsExclusive ?? []) sub.markFlagsMutuallyExclusive(...split(g));
    const r = await executeCommand(c, ...(tc.args ?? []));
    expect(r.error).toBe(tc.expectErr);
    expect(r.code).toBe(tc.expectErr ? 2 : 0);
  });

  it("the reason codes stay ax-ts's (required_together, one_required, mutually_exclusive)", async () => {
    const c = getCmd()
      .markFlagsRequiredTogether('a', 'b')
      .markFlagsOneRequired('c', 'd')
      .markFlagsMutuallyExclusive('e', 'f');
    expect((await jsonError(c, '--a=x', '--c=x'))?.context.reason).toBe('required_together');
    expect((await jsonError(c, '--e=x'))?.context.reason).toBe('one_required');
    expect((await jsonError(c, '--c=x', '--e=x', '--f=x'))?.context.reason).toBe('mutually_exclusive');
  });
});
