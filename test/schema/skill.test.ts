/**
 * SKILL.md (agentskills.io) from `__schema --as=skill`, and `ax-ts skill <entry> [--out] [--check]`:
 * --check fails after a command is added and passes after regeneration; the demo's committed
 * SKILL.md/AGENTS.md are current.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SKILL_LIMITS } from '../../lib/schema/skill.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = import.meta.resolve('tsx');
const AXTS = join(REPO, 'cmd/ax-ts/main.ts');

function axts(...args: string[]) {
  return spawnSync(process.execPath, ['--import', TSX, AXTS, ...args, '--format', 'json'], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_MODE: '' },
  });
}

function program(dir: string, commands: string[]): string {
  const file = join(dir, 'prog.ts');
  const cmds = commands
    .map(
      (c) =>
        `new Command({ use: '${c}', short: 'Do ${c}', effects: 'read_only', example: 'prog ${c}', run: () => ({ ok: true }) })`,
    )
    .join(',\n  ');
  writeFileSync(
    file,
    `import { Command, main } from '${join(REPO, 'lib/index.ts')}';\nconst root = new Command({ use: 'prog', short: 'A test program', version: '1.0.0' });\nroot.addCommand(\n  ${cmds},\n);\nmain(root);\n`,
  );
  return file;
}

describe('ax-ts skill', () => {
  it('writes SKILL.md and AGENTS.md; --check passes, fails after a command is added, passes after regeneration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-skill-'));
    const entry = program(dir, ['alpha']);
    const out = join(dir, 'skills');
    const first = axts('skill', entry, '--out', out);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).data).toMatchObject({ written: true, files: ['SKILL.md', 'AGENTS.md'] });
    expect(axts('skill', entry, '--out', out, '--check').status).toBe(0);

    program(dir, ['alpha', 'beta']);
    const stale = axts('skill', entry, '--out', out, '--check');
    expect(stale.status).toBe(1);
    expect(stale.stdout).toBe('');
    const err = JSON.parse(stale.stderr.trim().split('\n').pop()!).error;
    expect(err).toMatchObject({ kind: 'skill_stale', exit_code: 1, context: { stale: ['SKILL.md'] } });
    expect(err.actionable_fix).toContain('ax-ts skill');

    expect(axts('skill', entry, '--out', out).status).toBe(0);
    expect(axts('skill', entry, '--out', out, '--check').status).toBe(0);
    expect(readFileSync(join(out, 'SKILL.md'), 'utf8')).toContain('`prog beta` — Do beta.');
  }, 60_000);

  it('an entry that is not an ax-ts program is a clear validation error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ax-skill-'));
    const bad = join(dir, 'bad.mjs');
    writeFileSync(bad, 'process.exit(3);\n');
    const r = axts('skill', bad, '--out', dir);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error.context.reason).toBe('schema_failed');
  }, 30_000);

  it("the demo's committed SKILL.md and AGENTS.md are current, within the Agent Skills limits", () => {
    const r = axts('skill', join(REPO, 'cmd/tasks/main.ts'), '--check');
    expect(r.status, r.stderr).toBe(0);
    const skill = readFileSync(join(REPO, 'cmd/tasks/SKILL.md'), 'utf8');
    const front = /^---\nname: (.*)\ndescription: (.*)\n---\n/.exec(skill)!;
    expect(front[1]).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(front[1]!.length).toBeLessThanOrEqual(SKILL_LIMITS.name);
    const description = JSON.parse(front[2]!) as string;
    expect(description.length).toBeGreaterThan(0);
    expect(description.length).toBeLessThanOrEqual(SKILL_LIMITS.description);
    for (const section of ['## Contract', '## Commands', '## Full reference', '__schema'])
      expect(skill).toContain(section);
  }, 30_000);
});
