/**
 * `declarePrompt` / `declareResource` (docs/schema.md#declaration-rules): every rule at its boundary, the error contract of a
 * refused declaration, the cross-tree duplicate check at `__schema`, and the projection into both
 * `__schema` shapes (order, pruning, content never projected).
 */
import { describe, expect, it } from 'vitest';
import {
  AxError,
  Command,
  declarePrompt,
  declareResource,
  mcp,
  type PromptDecl,
  type ResourceDecl,
} from '../../lib/index.ts';
import { DECLARATION_LIMITS } from '../../lib/tree/declaration-rules.ts';
import { axCommand, axDoc, mcpDoc, schemaFailure, schemaRun, type Json } from '../fixtures/schema-trees.ts';

const ok = () => ({ ok: true });
const LONE_HIGH = '\uD800';
const LONE_LOW = '\uDC00';
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** A fresh command inside a tree (so commandPath has a root). */
function fresh(name = 'cmd'): Command {
  const c = new Command({ use: name, run: ok });
  new Command({ use: 'yourcli', commands: [c] });
  return c;
}

function snapshot(cmd: Command): string {
  return JSON.stringify({ prompts: cmd.prompts, resources: cmd.resources, annotations: cmd.annotations });
}

/** Asserts `declare` is refused with the declaration contract, and leaves the command unchanged. */
function expectRefused(cmd: Command, declare: (c: Command) => void, field: string, reason: string): AxError {
  const before = snapshot(cmd);
  let thrown: unknown;
  try {
    declare(cmd);
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected ${field}/${reason} to be refused`).toBeInstanceOf(AxError);
  const err = thrown as AxError;
  expect(err.kind).toBe('invalid_schema_declaration');
  expect(err.exitCode).toBe(2);
  expect(err.context).toEqual({ field, reason });
  expect(typeof err.fix).toBe('string');
  expect(err.fix!.trim().length).toBeGreaterThan(0);
  expect(err.toJSON()).toMatchObject({ kind: 'invalid_schema_declaration', exit_code: 2, context: { field, reason } });
  expect(snapshot(cmd)).toBe(before);
  return err;
}

const prompt = (patch: Partial<PromptDecl> = {}): PromptDecl => ({ name: 'p', template: 'hello', ...patch });
const resource = (patch: Partial<ResourceDecl> = {}): ResourceDecl => ({
  uri: 'yourcli://docs/x',
  name: 'doc',
  ...patch,
});
const refusePrompt = (p: PromptDecl, field: string, reason: string): AxError =>
  expectRefused(fresh(), (c) => declarePrompt(c, p), field, reason);
const refuseResource = (r: ResourceDecl, field: string, reason: string) =>
  expectRefused(fresh(), (c) => declareResource(c, r), field, reason);
const acceptPrompt = (p: PromptDecl) => {
  const c = fresh();
  declarePrompt(c, p);
  expect(c.prompts).toHaveLength(1);
};
const acceptResource = (r: ResourceDecl) => {
  const c = fresh();
  declareResource(c, r);
  expect(c.resources).toHaveLength(1);
};

describe('declarePrompt rules', () => {
  it.each(['a.b-c_1', 'A', '0', '-', '.', '_', 'triage', 'Code.Review-2_x'])('accepts the name %j', (name) =>
    acceptPrompt(prompt({ name })),
  );

  it.each(['a b', 'a/b', 'café', 'a\tb', 'a:b', '{x}', 'ü', '名前', 'a😀', 'a\u0000'])(
    'refuses the name %j (invalid_charset)',
    (name) => {
      refusePrompt(prompt({ name }), 'name', 'invalid_charset');
    },
  );

  it('requires a name', () => {
    refusePrompt(prompt({ name: '' }), 'name', 'required');
    refusePrompt({ template: 'x' } as PromptDecl, 'name', 'required');
  });

  it('requires a template', () => {
    refusePrompt(prompt({ template: '' }), 'template', 'required');
    refusePrompt({ name: 'p' } as PromptDecl, 'template', 'required');
  });

  it('checks argument names: charset, required, unique within the prompt', () => {
    acceptPrompt(prompt({ arguments: [{ name: 'a.b-c_1' }, { name: 'x' }], template: '{{a.b-c_1}} {{x}}' }));
    refusePrompt(prompt({ arguments: [{ name: 'ok' }, { name: 'bad name' }] }), 'arguments[1].name', 'invalid_charset');
    refusePrompt(prompt({ arguments: [{ name: '' }] }), 'arguments[0].name', 'required');
    refusePrompt(
      prompt({ arguments: [{ name: 'x' }, { name: 'y' }, { name: 'x' }] }),
      'arguments[2].name',
      'duplicate',
    );
  });

  it('every {{name}} must name a declared argument', () => {
    acceptPrompt(
      prompt({ arguments: [{ name: 'issue', required: true }], template: 'Triage {{issue}} now, {{issue}} again' }),
    );
    refusePrompt(prompt({ template: 'Triage {{issue}}' }), 'template', 'undeclared_placeholder');
    refusePrompt(
      prompt({ arguments: [{ name: 'issue' }], template: '{{issue}} {{other}}' }),
      'template',
      'undeclared_placeholder',
    );
    refusePrompt(
      prompt({ arguments: [{ name: 'Issue' }], template: '{{issue}}' }),
      'template',
      'undeclared_placeholder',
    );
  });

  it.each(['{{ issue }}', '{{ x}}', '{{x }}', '{issue}', '{{}}', '{{a b}}', '{{a/b}}', '}} {{', '{{', '}}'])(
    'other brace text %j is literal (no declaration needed)',
    (template) => acceptPrompt(prompt({ template: `text ${template} text` })),
  );

  it('the template limit counts UTF-8 bytes: exactly 64 KiB passes, one byte more fails', () => {
    expect(DECLARATION_LIMITS.templateBytes).toBe(65536);
    // 21845 × '€' (3 bytes each) + 'a' = 65536 bytes in only 21846 UTF-16 units
    const atLimit = '€'.repeat(21845) + 'a';
    expect(bytes(atLimit)).toBe(65536);
    expect(atLimit.length).toBeLessThan(65536);
    acceptPrompt(prompt({ template: atLimit }));
    const over = atLimit + 'a';
    expect(bytes(over)).toBe(65537);
    refusePrompt(prompt({ template: over }), 'template', 'too_long');
    // ASCII at the exact limit too
    acceptPrompt(prompt({ template: 'a'.repeat(65536) }));
    refusePrompt(prompt({ template: 'a'.repeat(65537) }), 'template', 'too_long');
    // one 4-byte character pushing over the limit
    refusePrompt(prompt({ template: 'a'.repeat(65533) + '😀' }), 'template', 'too_long');
    acceptPrompt(prompt({ template: 'a'.repeat(65532) + '😀' }));
  });

  it.each<[string, PromptDecl]>([
    ['name', prompt({ name: `a${LONE_HIGH}` })],
    ['title', prompt({ title: `t${LONE_LOW}` })],
    ['description', prompt({ description: LONE_HIGH })],
    ['arguments[0].name', prompt({ arguments: [{ name: LONE_LOW }] })],
    ['arguments[0].title', prompt({ arguments: [{ name: 'a', title: LONE_HIGH }] })],
    ['arguments[0].description', prompt({ arguments: [{ name: 'a', description: `${LONE_LOW}x` }] })],
    ['template', prompt({ template: `hi ${LONE_HIGH} there` })],
  ])('a lone surrogate in %s → invalid_utf8', (field, p) => {
    refusePrompt(p, field, 'invalid_utf8');
  });

  it('a valid surrogate pair (emoji) in free text is fine', () => {
    acceptPrompt(
      prompt({ title: '😀', description: '😀', template: '😀', arguments: [{ name: 'a', description: '😀' }] }),
    );
  });

  it('the same name twice on one command is refused; the first stays', () => {
    const c = fresh();
    declarePrompt(c, prompt({ name: 'dup', template: 'first' }));
    expectRefused(c, (x) => declarePrompt(x, prompt({ name: 'dup', template: 'second' })), 'name', 'duplicate');
    expect(c.prompts.map((p) => p.template)).toEqual(['first']);
  });

  it('the error message names the prompt and the field', () => {
    const err = refusePrompt(prompt({ name: 'triage', template: '{{x}}' }), 'template', 'undeclared_placeholder');
    expect(err.message).toContain('triage');
    expect(err.message).toContain('template');
    expect(err.fix).toContain('x');
  });

  it('the declaration is copied: later changes to the object do not affect it', () => {
    const c = fresh();
    const p = prompt({ name: 'p', arguments: [{ name: 'a' }], template: '{{a}}' });
    declarePrompt(c, p);
    p.name = 'changed';
    p.arguments![0]!.name = 'b';
    expect(c.prompts[0]).toEqual({ name: 'p', arguments: [{ name: 'a' }], template: '{{a}}' });
  });

  it('declarations are appended in order', () => {
    const c = fresh();
    for (const n of ['z', 'a', 'm']) declarePrompt(c, prompt({ name: n }));
    expect(c.prompts.map((p) => p.name)).toEqual(['z', 'a', 'm']);
  });
});

describe('declareResource rules', () => {
  it.each([
    'yourcli://docs/x',
    'urn:yourcli:x',
    'https://example.com/a?b=c#d',
    'file:///tmp/x',
    'yourcli://docs/café',
    'a+b.c-d://x',
  ])('accepts the URI %j', (uri) => acceptResource(resource({ uri })));

  it('requires exactly one of uri or uriTemplate', () => {
    refuseResource({ name: 'doc' } as ResourceDecl, 'uri', 'required');
    refuseResource(resource({ uri: '' }), 'uri', 'required');
    refuseResource(resource({ uriTemplate: 'yourcli://logs/{date}' }), 'uri', 'required');
  });

  it('requires a name', () => {
    refuseResource(resource({ name: '' }), 'name', 'required');
    refuseResource({ uri: 'yourcli://x' } as ResourceDecl, 'name', 'required');
  });

  it.each(['docs/x', '/abs/path', '//host/x', 'no-scheme', ':x', '1abc://x', '+x:y'])(
    'refuses %j (no scheme) as not_absolute',
    (uri) => {
      refuseResource(resource({ uri }), 'uri', 'not_absolute');
    },
  );

  it.each([
    ['http://[::1', 'invalid_uri'],
    ['http://x:99999/', 'invalid_uri'],
    ['yourcli://docs/%zz', 'invalid_percent_encoding'],
    ['yourcli://docs/100%', 'invalid_percent_encoding'],
    ['yourcli://docs/%4', 'invalid_percent_encoding'],
  ])('refuses %j (a scheme, but it does not parse) with the real fault: %s', (uri, reason) => {
    refuseResource(resource({ uri }), 'uri', reason);
  });

  it.each([
    ['a space', 'yourcli://docs/a b'],
    ['a tab', 'yourcli://docs/a\tb'],
    ['a newline', 'yourcli://docs/a\nb'],
    ['NUL', 'yourcli://docs/a\u0000b'],
    ['DEL', 'yourcli://docs/a\u007fb'],
    ['a C1 control', 'yourcli://docs/a\u0085b'],
    ['a no-break space', 'yourcli://docs/a\u00a0b'],
    ['a leading space', ' yourcli://docs/x'],
  ])('refuses a URI with %s (invalid_character)', (_label, uri) => {
    refuseResource(resource({ uri }), 'uri', 'invalid_character');
  });

  it('the URI limit counts UTF-8 bytes: exactly 2048 passes, 2049 fails', () => {
    expect(DECLARATION_LIMITS.uriBytes).toBe(2048);
    const prefix = 'yourcli://d/'; // 12 bytes
    const atLimit = prefix + 'é'.repeat(1018); // + 2036 bytes
    expect(bytes(atLimit)).toBe(2048);
    expect(atLimit.length).toBeLessThan(2048);
    acceptResource(resource({ uri: atLimit }));
    expect(bytes(atLimit + 'a')).toBe(2049);
    refuseResource(resource({ uri: atLimit + 'a' }), 'uri', 'too_long');
    acceptResource(resource({ uri: prefix + 'a'.repeat(2036) }));
    refuseResource(resource({ uri: prefix + 'a'.repeat(2037) }), 'uri', 'too_long');
  });

  it('uriTemplate follows the same rules, reported under its own field', () => {
    acceptResource({ uriTemplate: 'yourcli://logs/{date}', name: 'logs' });
    acceptResource({ uriTemplate: 'yourcli://logs/{date}/{level}', name: 'logs' });
    refuseResource({ uriTemplate: 'logs/{date}', name: 'logs' }, 'uriTemplate', 'not_absolute');
    refuseResource({ uriTemplate: 'yourcli://logs/ {date}', name: 'logs' }, 'uriTemplate', 'invalid_character');
    refuseResource({ uriTemplate: `yourcli://logs/${LONE_HIGH}`, name: 'logs' }, 'uriTemplate', 'invalid_utf8');
    refuseResource({ uriTemplate: `yourcli://${'a'.repeat(2039)}`, name: 'logs' }, 'uriTemplate', 'too_long');
  });

  it('mimeType may contain spaces but no control characters', () => {
    acceptResource(resource({ mimeType: 'text/plain; charset=utf-8' }));
    acceptResource(resource({ mimeType: 'text/markdown' }));
    refuseResource(resource({ mimeType: 'text/plain\n' }), 'mimeType', 'invalid_character');
    refuseResource(resource({ mimeType: 'text/\u0000plain' }), 'mimeType', 'invalid_character');
    refuseResource(resource({ mimeType: 'text/plain\u007f' }), 'mimeType', 'invalid_character');
  });

  it('static content: exactly 1 MiB of UTF-8 passes, one byte more fails', () => {
    expect(DECLARATION_LIMITS.contentBytes).toBe(1048576);
    const atLimit = '€'.repeat(349525) + 'a'; // 1048575 + 1 bytes
    expect(bytes(atLimit)).toBe(1048576);
    expect(atLimit.length).toBeLessThan(1048576);
    acceptResource(resource({ content: atLimit }));
    refuseResource(resource({ content: atLimit + 'a' }), 'content', 'too_long');
    acceptResource(resource({ content: '' }));
  });

  it.each<[string, ResourceDecl]>([
    ['uri', resource({ uri: `yourcli://docs/${LONE_HIGH}` })],
    ['name', resource({ name: `doc${LONE_LOW}` })],
    ['title', resource({ title: LONE_HIGH })],
    ['description', resource({ description: LONE_LOW })],
    ['mimeType', resource({ mimeType: `text/${LONE_HIGH}` })],
    ['content', resource({ content: `body ${LONE_LOW}` })],
  ])('a lone surrogate in %s → invalid_utf8', (field, r) => {
    refuseResource(r, field, 'invalid_utf8');
  });

  it('a resource name is free text (spaces and unicode allowed)', () => {
    acceptResource(resource({ name: 'Project docs — café' }));
  });

  it('the same URI (or uriTemplate) twice on one command is refused; the first stays', () => {
    const c = fresh();
    declareResource(c, resource({ name: 'first' }));
    expectRefused(c, (x) => declareResource(x, resource({ name: 'second' })), 'uri', 'duplicate');
    declareResource(c, { uriTemplate: 'yourcli://logs/{d}', name: 'logs' });
    expectRefused(
      c,
      (x) => declareResource(x, { uriTemplate: 'yourcli://logs/{d}', name: 'again' }),
      'uriTemplate',
      'duplicate',
    );
    expect(c.resources.map((r) => r.name)).toEqual(['first', 'logs']);
  });

  it('the declaration is copied', () => {
    const c = fresh();
    const r = resource({ content: 'v1' });
    declareResource(c, r);
    r.content = 'v2';
    r.uri = 'yourcli://other';
    expect(c.resources[0]).toMatchObject({ uri: 'yourcli://docs/x', content: 'v1' });
  });
});

describe('across the tree (__schema)', () => {
  const twoCommands = () => {
    const a = new Command({ use: 'alpha', run: ok });
    const b = new Command({ use: 'beta', commands: [new Command({ use: 'inner', run: ok })] });
    const root = new Command({ use: 'yourcli', commands: [a, b] });
    return { root, a, inner: b.commands()[0]! };
  };

  it('the same prompt name on two commands fails __schema (both shapes) with validation_error naming both', async () => {
    const { root, a, inner } = twoCommands();
    declarePrompt(a, prompt({ name: 'triage' }));
    declarePrompt(inner, prompt({ name: 'triage', template: 'other' }));
    for (const shape of ['mcp', 'ax'] as const) {
      const err = await schemaFailure(root, shape);
      expect(err.kind).toBe('validation_error');
      expect(err.exit_code).toBe(2);
      expect(err.message).toContain('"triage"');
      expect(err.message).toContain('yourcli alpha');
      expect(err.message).toContain('yourcli beta inner');
      expect(err.context).toMatchObject({
        reason: 'duplicate_declaration',
        kind: 'prompt',
        key: 'triage',
        commands: ['yourcli alpha', 'yourcli beta inner'],
      });
      expect(err.actionable_fix).toBeTruthy();
    }
  });

  it('the same resource URI on two commands fails __schema with validation_error naming both', async () => {
    const { root, a, inner } = twoCommands();
    declareResource(a, resource());
    declareResource(inner, resource({ name: 'other' }));
    const err = await schemaFailure(root, 'mcp');
    expect(err.context).toMatchObject({
      reason: 'duplicate_declaration',
      kind: 'resource',
      key: 'yourcli://docs/x',
      commands: ['yourcli alpha', 'yourcli beta inner'],
    });
    expect((await schemaFailure(root, 'ax')).context.kind).toBe('resource');
  });

  it('the same uriTemplate on two commands fails too', async () => {
    const { root, a, inner } = twoCommands();
    declareResource(a, { uriTemplate: 'yourcli://logs/{date}', name: 'l' });
    declareResource(inner, { uriTemplate: 'yourcli://logs/{date}', name: 'l2' });
    expect((await schemaFailure(root, 'mcp')).context).toMatchObject({
      kind: 'resource',
      key: 'yourcli://logs/{date}',
    });
  });

  it('the same prompt name as a resource name, or under a hidden command, is no conflict', async () => {
    const { root, a, inner } = twoCommands();
    declarePrompt(a, prompt({ name: 'doc' }));
    declareResource(inner, resource({ name: 'doc' }));
    const hidden = new Command({ use: 'secret', hidden: true, run: ok });
    root.addCommand(hidden);
    declarePrompt(hidden, prompt({ name: 'doc' }));
    declareResource(hidden, resource({ name: 'dup-but-hidden' }));
    const doc = await mcpDoc(root);
    expect(doc.prompts.map((p: Json) => p.name)).toEqual(['doc']);
    expect(doc.resources.map((r: Json) => r.name)).toEqual(['doc']);
  });
});

describe('projection into __schema', () => {
  /** A tree declared out of order; tree order is root, alpha, alpha deep, beta (children by name). */
  function tree() {
    const deep = new Command({ use: 'deep', run: ok });
    const alpha = new Command({ use: 'alpha', commands: [deep] }); // a pure group keeps its declarations
    const beta = mcp.exclude(new Command({ use: 'beta', run: ok })); // excluded keeps its declarations
    const hidden = new Command({
      use: 'hidden',
      hidden: true,
      run: ok,
      commands: [new Command({ use: 'under', run: ok })],
    });
    const root = new Command({ use: 'yourcli', commands: [beta, hidden, alpha] }); // (a hidden root: test/agents-*.test.ts)
    declarePrompt(beta, {
      name: 'b1',
      template: 'B1 {{x}}',
      arguments: [{ name: 'x', required: true, title: 'X', description: 'the x' }],
    });
    declarePrompt(beta, { name: 'b2', title: 'Bee two', description: 'second', template: 'B2' });
    declareResource(beta, { uri: 'yourcli://b', name: 'b', mimeType: 'text/plain', content: 'SECRET-CONTENT-B' });
    declarePrompt(hidden, { name: 'h1', template: 'H1' });
    declareResource(hidden, { uri: 'yourcli://h', name: 'h' });
    declarePrompt(hidden.commands()[0]!, { name: 'h2', template: 'H2' });
    declarePrompt(deep, { name: 'd1', template: 'D1' });
    declareResource(deep, {
      uriTemplate: 'yourcli://logs/{date}',
      name: 'logs',
      content: 'SECRET-CONTENT-LOGS {date}',
    });
    declareResource(deep, { uri: 'urn:yourcli:deep', name: 'deep', title: 'Deep', description: 'deep one' });
    declarePrompt(alpha, { name: 'a1', template: 'A1' });
    declarePrompt(root, { name: 'r1', template: 'R1' });
    declareResource(root, { uri: 'yourcli://root', name: 'root', content: 'SECRET-CONTENT-ROOT' });
    return root;
  }

  it('--as=mcp: prompts (with their template) and resources in command-tree order then declaration order, without content', async () => {
    const r = await schemaRun(tree(), 'mcp');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('SECRET-CONTENT');
    const doc = JSON.parse(r.stdout);
    expect(doc.prompts).toEqual([
      { name: 'r1', template: 'R1' },
      { name: 'a1', template: 'A1' },
      { name: 'd1', template: 'D1' },
      {
        name: 'b1',
        arguments: [{ name: 'x', title: 'X', description: 'the x', required: true }],
        template: 'B1 {{x}}',
      },
      { name: 'b2', title: 'Bee two', description: 'second', template: 'B2' },
    ]);
    expect(doc.resources).toEqual([
      { uri: 'yourcli://root', name: 'root' },
      { uri: 'urn:yourcli:deep', name: 'deep', title: 'Deep', description: 'deep one' },
      { uri: 'yourcli://b', name: 'b', mimeType: 'text/plain' },
    ]);
    expect(doc.resourceTemplates).toEqual([{ uriTemplate: 'yourcli://logs/{date}', name: 'logs' }]);
    for (const x of [...doc.resources, ...doc.resourceTemplates]) expect(x).not.toHaveProperty('content');
  });

  it('--as=ax: per command, prompts with their template, resources without content, hidden ones gone', async () => {
    const r = await schemaRun(tree(), 'ax');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('SECRET-CONTENT');
    expect(r.stdout).not.toContain('"h1"');
    expect(r.stdout).not.toContain('"h2"');
    expect(r.stdout).not.toContain('yourcli://h"');
    const doc = JSON.parse(r.stdout);
    expect(doc.command.prompts).toEqual([{ name: 'r1', template: 'R1' }]);
    expect(doc.command.resources).toEqual([{ uri: 'yourcli://root', name: 'root' }]);
    expect(axCommand(doc, ['alpha']).prompts).toEqual([{ name: 'a1', template: 'A1' }]);
    expect(axCommand(doc, ['alpha']).runnable).toBe(false); // a group: no tool, so no mcp mark needed
    expect(axCommand(doc, ['alpha']).mcp).toBeUndefined();
    const deep = axCommand(doc, ['alpha', 'deep']);
    expect(deep.prompts).toEqual([{ name: 'd1', template: 'D1' }]);
    expect(deep.resources).toEqual([
      { uriTemplate: 'yourcli://logs/{date}', name: 'logs' },
      { uri: 'urn:yourcli:deep', name: 'deep', title: 'Deep', description: 'deep one' },
    ]);
    const beta = axCommand(doc, ['beta']);
    expect(beta.mcp).toEqual({ tool: null, reason: 'excluded' });
    expect(beta.prompts.map((p: Json) => p.name)).toEqual(['b1', 'b2']);
    expect(beta.prompts[0].template).toBe('B1 {{x}}');
    expect(beta.resources).toEqual([{ uri: 'yourcli://b', name: 'b', mimeType: 'text/plain' }]);
    expect(doc.command.commands.map((c: Json) => c.name)).toEqual(['alpha', 'beta']);
  });

  it('a command without declarations has no prompts/resources keys in --as=ax; the mcp arrays are always present', async () => {
    const root = new Command({ use: 'yourcli', commands: [new Command({ use: 'a', run: ok })] });
    const ax = await axDoc(root);
    expect(axCommand(ax, ['a'])).not.toHaveProperty('prompts');
    expect(axCommand(ax, ['a'])).not.toHaveProperty('resources');
    const doc = await mcpDoc(root);
    expect(doc).toMatchObject({ prompts: [], resources: [], resourceTemplates: [] });
  });

  it('the projection is deterministic', async () => {
    const a = await schemaRun(tree(), 'mcp');
    const b = await schemaRun(tree(), 'mcp');
    expect(b.stdout).toBe(a.stdout);
    const c = await schemaRun(tree(), 'ax');
    const d = await schemaRun(tree(), 'ax');
    expect(d.stdout).toBe(c.stdout);
  });
});
