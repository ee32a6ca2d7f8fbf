/**
 * The channel a tool call asks the client through: `elicitation/create` for `ctx.confirm` and
 * `ctx.elicit`, `sampling/createMessage` for `ctx.sample` — each offered only when the client
 * declared that capability in `initialize` (the 2025 era: a 2026-07-28 client is asked through
 * multi round-trip results instead, not built yet), each sent on the call's own stream (related to the
 * `tools/call` request), bounded by {@link ASK_TIMEOUT_MS} and by the call's signal.
 * Source: MCP 2025-11-25 client features "Elicitation" and "Sampling".
 */
import type { CreateMessageResult, ElicitResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { ProtocolError, SdkError, SdkErrorCode } from '../base/sdk.ts';
import { AxError } from '../../lib/contract/errors.ts';
import type { Interaction, Root, SampleRequest, SampleResult } from '../../lib/tree/interaction.ts';
import { MALFORMED_RESPONSE } from '../base/jsonl.ts';

/**
 * How long the server waits for the client to answer a form or a sampling request, ms (10 minutes: a
 * person may be typing).
 */
export const ASK_TIMEOUT_MS = 10 * 60_000;

/** Whether the client can show a form: `elicitation: {}` (2025-06-18) or `elicitation: {form: {}}` (2025-11-25). */
export function formCapable(caps: Record<string, unknown> | undefined): boolean {
  const el = caps?.elicitation as Record<string, unknown> | undefined;
  if (!el || typeof el !== 'object') return false;
  return Object.keys(el).length === 0 || el.form !== undefined;
}

/** `sampling/createMessage` params for a request (`maxTokens` already defaulted by `ctx.sample`). */
export function samplingParams(req: SampleRequest): Record<string, unknown> & { maxTokens: number } {
  const messages = typeof req.messages === 'string' ? [{ role: 'user' as const, text: req.messages }] : req.messages;
  return {
    messages: messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text } })),
    maxTokens: req.maxTokens!,
    ...(req.systemPrompt !== undefined ? { systemPrompt: req.systemPrompt } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.stopSequences ? { stopSequences: req.stopSequences } : {}),
    ...(req.modelPreferences ? { modelPreferences: req.modelPreferences } : {}),
  };
}

/**
 * Maps a failed client request to the run's error (an abort passes through: the run reports
 * `interrupted`). Only the server's own waiting ends retryable (`timeout`, or the connection
 * closing under it); whatever the client answers — an error of any code, a malformed response — is
 * the client's refusal and is never retryable: a destructive call must not be invited to run again.
 */
function askError(what: 'elicitation' | 'sampling' | 'roots', e: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return e;
  const sdk = e instanceof SdkError ? e : undefined;
  const m = e instanceof ProtocolError ? e : undefined;
  if (m && (m.data as { reason?: unknown } | undefined)?.reason === MALFORMED_RESPONSE) {
    return new AxError('validation_error', `the client's answer to the ${what} request is malformed: ${m.message}`, {
      fix: 'Use a client that answers with a valid result; do not retry without the user.',
      context: { reason: 'invalid_answer' },
    });
  }
  if (sdk?.code === SdkErrorCode.RequestTimeout) {
    return new AxError(
      'timeout',
      `the client did not answer the ${what} request within ${ASK_TIMEOUT_MS / 60_000} minutes`,
      {
        fix: 'Call the tool again when the user is there to answer.',
      },
    );
  }
  if (sdk?.code === SdkErrorCode.ConnectionClosed)
    return new AxError('interrupted', `the client went away while the ${what} request was open`, {
      fix: 'Call the tool again.',
    });
  if (what === 'sampling' && m?.code === -32601) {
    return new AxError(
      'sampling_unavailable',
      'the client declared sampling but does not answer sampling/createMessage',
      { fix: 'Use a client whose sampling works, or a command that does not sample.' },
    );
  }
  const message = e instanceof Error ? e.message : String(e);
  return new AxError('declined', `the client refused the ${what} request: ${message}`, {
    fix: 'Ask the user what they want instead; do not retry without their consent.',
    context: { ...(m ? { code: m.code } : {}) },
  });
}

/** The {@link Interaction} for one 2025-era `tools/call`, from what the client declared in `initialize`. */
export function interactionFor(server: Server, ctx: ServerContext): Interaction {
  const caps = server.getClientCapabilities() as Record<string, unknown> | undefined;
  const out: Interaction = {};
  if (formCapable(caps)) {
    out.elicit = async (message, schema, signal) => {
      try {
        const r = (await ctx.mcpReq.send(
          { method: 'elicitation/create', params: { message, requestedSchema: schema as never } },
          { signal, timeout: ASK_TIMEOUT_MS },
        )) as ElicitResult;
        return {
          action: r.action,
          ...(r.content ? { content: r.content as Record<string, string | number | boolean | string[]> } : {}),
        };
      } catch (e) {
        throw askError('elicitation', e, signal);
      }
    };
  }
  if (caps?.sampling) {
    out.sample = async (req: SampleRequest, signal): Promise<SampleResult> => {
      const params = samplingParams(req);
      try {
        const r = (await ctx.mcpReq.send(
          { method: 'sampling/createMessage', params },
          { signal, timeout: ASK_TIMEOUT_MS },
        )) as CreateMessageResult;
        const parts = Array.isArray(r.content) ? r.content : [r.content];
        const text = parts
          .map((p) => (p && (p as { type?: string }).type === 'text' ? (p as { text: string }).text : ''))
          .join('');
        return { text, model: r.model, role: r.role, ...(r.stopReason ? { stopReason: r.stopReason } : {}) };
      } catch (e) {
        throw askError('sampling', e, signal);
      }
    };
  }
  if (caps?.roots) {
    out.roots = async (signal) => {
      let r: unknown;
      try {
        r = await ctx.mcpReq.send({ method: 'roots/list', params: {} }, { signal, timeout: ASK_TIMEOUT_MS });
      } catch (e) {
        throw askError('roots', e, signal);
      }
      const roots = rootsAnswer(r);
      if (typeof roots === 'string')
        throw new AxError('validation_error', `the client's answer to the roots request is malformed: it ${roots}`, {
          context: { reason: 'invalid_answer' },
        });
      return roots;
    };
  }
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `ListRootsResult`'s roots, or why it is not one. */
export function rootsAnswer(a: unknown): Root[] | string {
  if (!isObj(a) || !Array.isArray(a.roots) || !a.roots.every((r) => isObj(r) && typeof r.uri === 'string'))
    return 'must be a roots result: {"roots": [{"uri", "name"?}]}';
  return a.roots.map((r: Record<string, unknown>) => ({
    uri: r.uri as string,
    ...(typeof r.name === 'string' ? { name: r.name } : {}),
  }));
}
