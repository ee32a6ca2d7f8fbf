/**
 * Tool schemas survive the model providers' converters: the tools of the demo,
 * of the reference fixture and of the Cobra flag-type fixture (maps, uint, slices) go through
 * - `openai`'s strict-schema transform (`toStrictJsonSchema`, what strict function tools use),
 * - `@anthropic-ai/sdk`'s `transformJSONSchema` (strict tools),
 * - `@google/genai`'s request builder: a real `models.generateContent` call with the tools as
 *   legacy `parameters` (its `processJsonSchema` path), sent to a loopback server that records the
 *   request, and `mcpToTool` (the `parametersJsonSchema` path),
 * and nothing is rejected (the converter throws, or the result breaks the provider's rules) or
 * closed (an object the agent must fill is turned into one that accepts only `{}`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { GoogleGenAI, mcpToTool } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpDocument } from '../../lib/schema/walk.ts';
import { type Command } from '../../lib/index.ts';
import { buildRefCli } from '../../golden/fixtures/ref-cli.ts';
import { buildTasksCli } from '../../cmd/tasks/cli.ts';
import { typesTree } from '../fixtures/cobra-types-tree.ts';
import { flagKindsTree } from '../fixtures/flag-kinds-tree.ts';

type Json = Record<string, any>;
interface Tool {
  name: string;
  description: string;
  inputSchema: Json;
  outputSchema?: Json;
}

// [label, tree, how many tools at least]: the demo, the reference fixture, and the Cobra flag-type
// fixture (stringToString/stringToInt maps, uint, the slices, an optional value), and the flag-kind
// fixture (one flag of every type)
const TREES: [string, () => Command, number][] = [
  ['demo', buildTasksCli, 4],
  ['ref', buildRefCli, 4],
  ['cobra-types', typesTree, 1],
  ['flag-kinds', flagKindsTree, 1],
];

function toolsOf(build: () => Command): Tool[] {
  return (mcpDocument(build()) as { tools: Tool[] }).tools;
}

/** Object nodes (with their JSON path) of a schema, walking properties, items and anyOf. */
function objectNodes(s: Json, path = '<root>', out: [string, Json][] = []): [string, Json][] {
  if (!s || typeof s !== 'object') return out;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('object') || types.includes('OBJECT')) out.push([path, s]);
  for (const [k, v] of Object.entries(s.properties ?? {})) objectNodes(v as Json, `${path}.properties.${k}`, out);
  if (s.items) objectNodes(s.items, `${path}.items`, out);
  (s.anyOf ?? []).forEach((b: Json, i: number) => objectNodes(b, `${path}.anyOf[${i}]`, out));
  return out;
}

/** The node at a path produced by {@link objectNodes}. */
function at(s: Json, path: string): Json | undefined {
  let cur: any = s;
  for (const part of path
    .replace(/^<root>\.?/, '')
    .split(/\.(?![^[]*\])/)
    .filter(Boolean)) {
    const m = /^(\w+)\[(\d+)\]$/.exec(part);
    if (m) cur = cur?.[m[1]!]?.[Number(m[2])];
    else if (part === 'properties' || part === 'items') cur = cur?.[part];
    else cur = cur?.[part];
  }
  return cur;
}

/**
 * Closed: an object node that lets the agent give some keys (declared properties, or any key when
 * open) comes back accepting fewer — no properties left while extra keys are now forbidden.
 */
function closedNodes(before: Json, after: Json): string[] {
  const out: string[] = [];
  for (const [path, node] of objectNodes(before)) {
    const props = Object.keys(node.properties ?? {});
    const open = node.additionalProperties !== false;
    const conv = at(after, path);
    if (!conv) {
      out.push(`${path}: gone`);
      continue;
    }
    const convProps = Object.keys(conv.properties ?? {});
    if (open && conv.additionalProperties === false && convProps.length === 0)
      out.push(`${path}: an open object became {}`);
    if (props.some((p) => !convProps.includes(p)))
      out.push(`${path}: lost properties ${props.filter((p) => !convProps.includes(p)).join(', ')}`);
  }
  return out;
}

const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const GEMINI_FIELDS = new Set([
  'anyOf',
  'default',
  'description',
  'enum',
  'example',
  'format',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'nullable',
  'pattern',
  'properties',
  'propertyOrdering',
  'required',
  'title',
  'type',
]);

/** Violations of Gemini's legacy Schema (the OpenAPI subset of function declarations). */
function geminiProblems(s: Json, path = '<root>'): string[] {
  const out: string[] = [];
  for (const k of Object.keys(s)) if (!GEMINI_FIELDS.has(k)) out.push(`${path}: unknown field ${k}`);
  if (s.anyOf) s.anyOf.forEach((b: Json, i: number) => out.push(...geminiProblems(b, `${path}.anyOf[${i}]`)));
  else if (!GEMINI_TYPES.has(s.type)) out.push(`${path}: type ${JSON.stringify(s.type)}`);
  if (s.enum && (!Array.isArray(s.enum) || s.enum.some((e: unknown) => typeof e !== 'string')))
    out.push(`${path}: enum with non-string members`);
  if (s.type === 'ARRAY') {
    if (!s.items) out.push(`${path}: ARRAY without items`);
    else out.push(...geminiProblems(s.items, `${path}.items`));
  }
  if (s.type === 'OBJECT') {
    const props = Object.keys(s.properties ?? {});
    if (props.length === 0) out.push(`${path}: OBJECT without properties`);
    for (const r of s.required ?? []) if (!props.includes(r)) out.push(`${path}: required ${r} is no property`);
    for (const [k, v] of Object.entries(s.properties ?? {}))
      out.push(...geminiProblems(v as Json, `${path}.properties.${k}`));
  }
  return out;
}

/** A loopback stand-in for the Gemini API: records each request body, answers one text candidate. */
let gemini: Server;
let geminiUrl = '';
const bodies: Json[] = [];
beforeAll(async () => {
  gemini = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      bodies.push(JSON.parse(raw || '{}'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }),
      );
    });
  });
  await new Promise<void>((r) => gemini.listen(0, '127.0.0.1', r));
  geminiUrl = `http://127.0.0.1:${(gemini.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => gemini.close(() => r())));

describe('the checks fail where they should', () => {
  // a map as an open object, the shape stringToString had before: strict converters close it, Gemini rejects it
  const open = {
    type: 'object',
    properties: { label: { type: 'object', additionalProperties: { type: 'string' } } },
    required: ['label'],
    additionalProperties: false,
  };

  it('openai strict rejects an open object; anthropic strict closes it', () => {
    expect(() => toStrictJsonSchema(structuredClone(open) as never)).toThrow(/additionalProperties: false/);
    expect(closedNodes(open, transformJSONSchema(structuredClone(open) as never) as Json)).toEqual([
      '<root>.properties.label: an open object became {}',
    ]);
  });

  it("Gemini's Schema has no object without properties", () => {
    expect(geminiProblems({ type: 'OBJECT', properties: { label: { type: 'OBJECT' } } })).toEqual([
      '<root>.properties.label: OBJECT without properties',
    ]);
  });

  it("the cobra-types fixture's maps are in the inputSchema (so the converters above meet them)", () => {
    const echo = toolsOf(typesTree)[0]!.inputSchema;
    expect(echo.properties.label.anyOf[0]).toMatchObject({
      type: 'array',
      items: { type: 'object', required: ['key', 'value'], additionalProperties: false },
    });
    expect(echo.properties.limit.anyOf[0].items.properties.value).toEqual({ type: 'integer' });
  });
});

describe.each(TREES)("%s tools through the providers' converters", (_label, build, least) => {
  const tools = toolsOf(build);

  it('has tools to convert', () => {
    expect(tools.length).toBeGreaterThanOrEqual(least);
  });

  it('openai toStrictJsonSchema (strict function tools): no tool rejected, no object closed', () => {
    for (const t of tools) {
      let out: Json;
      try {
        out = toStrictJsonSchema(structuredClone(t.inputSchema) as never) as Json;
      } catch (e) {
        throw new Error(`${t.name}: rejected by openai strict: ${(e as Error).message}`);
      }
      expect(closedNodes(t.inputSchema, out), t.name).toEqual([]);
      // every property survives, so the agent can still give each one
      expect(Object.keys(out.properties).sort(), t.name).toEqual(Object.keys(t.inputSchema.properties).sort());
    }
  });

  it('@anthropic-ai/sdk transformJSONSchema (strict tools): no tool rejected, no object closed', () => {
    for (const t of tools) {
      let out: Json;
      try {
        out = transformJSONSchema(structuredClone(t.inputSchema) as never) as Json;
      } catch (e) {
        throw new Error(`${t.name}: rejected by anthropic strict: ${(e as Error).message}`);
      }
      expect(closedNodes(t.inputSchema, out), t.name).toEqual([]);
      expect(Object.keys(out.properties).sort(), t.name).toEqual(Object.keys(t.inputSchema.properties).sort());
    }
  });

  it("@google/genai request builder, legacy parameters: every declaration is within Gemini's Schema and keeps every property", async () => {
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: geminiUrl } });
    const before = bodies.length;
    await ai.models.generateContent({
      model: 'gemini-2.0-flash',
      contents: 'hi',
      config: {
        tools: [
          {
            functionDeclarations: tools.map((t) => ({
              name: t.name,
              description: t.description,
              parameters: structuredClone(t.inputSchema) as never,
            })),
          },
        ],
      },
    });
    expect(bodies.length).toBe(before + 1);
    const decls = bodies.at(-1)!.tools[0].functionDeclarations as Json[];
    expect(decls.map((d) => d.name)).toEqual(tools.map((t) => t.name));
    for (const [i, d] of decls.entries()) {
      expect(geminiProblems(d.parameters), d.name).toEqual([]);
      expect(Object.keys(d.parameters.properties).sort(), d.name).toEqual(
        Object.keys(tools[i]!.inputSchema.properties).sort(),
      );
    }
  });

  it('@google/genai mcpToTool: parametersJsonSchema is the inputSchema itself', async () => {
    const client = { listTools: async () => ({ tools }), callTool: async () => ({ content: [] }) };
    const tool = mcpToTool(client as never);
    const decl = await (tool as unknown as { tool(): Promise<{ functionDeclarations: Json[] }> }).tool();
    for (const [i, d] of decl.functionDeclarations.entries())
      expect(d.parametersJsonSchema).toEqual(tools[i]!.inputSchema);
  });
});
