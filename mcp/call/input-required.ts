/**
 * Asking a 2026-07-28 client: multi round-trip requests. A handler's `ctx.confirm`, `ctx.elicit`,
 * `ctx.sample` or `ctx.roots` that the request's `inputResponses` do not answer stops the run
 * (nothing further runs; the idempotency key is released) and the call answers
 * `resultType: "input_required"` with every question the run asked in that turn as `inputRequests`
 * and a signed `requestState`. The client retries the same call with the answers and the state;
 * the handler runs again from the start, and each question now finds its answer. The state is an
 * HMAC-SHA256 token (the SDK's `createRequestStateCodec`) binding the tool, a hash of its arguments,
 * the questions asked and the answers of earlier rounds: a tampered, expired or foreign state, or
 * one echoed for another call, is refused with -32602 before anything runs.
 * Source: MCP 2026-07-28 "Multi Round-Trip Requests" (basic/patterns/mrtr);
 * docs/mcp-server.md#asking-the-client-confirm-elicit-sample.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRequestStateCodec } from '../base/sdk.ts';
import { AxError } from '../../lib/contract/errors.ts';
import type { ElicitAnswer, Interaction, SampleResult } from '../../lib/tree/interaction.ts';
import { rpcError } from '../base/eras.ts';
import { formCapable, rootsAnswer, samplingParams } from './interact.ts';

/**
 * The error kind a run stops with when its questions go out as an input round: the call's result is
 * the round (`input_required`), never this error (docs/mcp-server.md#three-things-called-input-required).
 */
export const INPUT_ROUND = 'input_round';

/** How long a `requestState` stays valid, seconds (10 minutes, as long as the 2025 era waits for an answer). */
export const STATE_TTL_SECONDS = 600;

/** One question as it goes out in `inputRequests`. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Record<string, unknown>;
}

/** What a `requestState` carries: tool, argument hash, answers of earlier rounds, questions asked. */
interface StatePayload {
  t: string;
  a: string;
  r: Record<string, unknown>;
  q: Record<string, string>;
  /** A stop's fill-in form asked in the last round (stop-input.ts): its key, fixed arguments and fields. */
  f?: StopFill & { k: string };
  /** A nonce, new per state: the answered round is recorded under it and runs once (answered.ts). */
  n: string;
}

/** A stop's next step as a form: the arguments the step sets, and the properties the user fills in. */
export interface StopFill {
  fixed: Record<string, unknown>;
  fields: string[];
}

type Codec = ReturnType<typeof createRequestStateCodec>;
let codec: { key: string; codec: Codec } | undefined;

/** The codec for the server's key (`$AX_MCP_STATE_KEY`, checked at start), else a random key made once per process. */
function stateCodec(stateKey: string | undefined): Codec {
  const key = stateKey ?? codec?.key ?? randomBytes(32).toString('base64url');
  if (codec?.key !== key) codec = { key, codec: createRequestStateCodec({ key, ttlSeconds: STATE_TTL_SECONDS }) };
  return codec.codec;
}

/** JSON with object keys sorted, so equal values hash alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

const digest = (v: unknown) => createHash('sha256').update(canonical(v)).digest('base64url');

/** The -32602 of a refused `requestState` (the SDK's wording), with why in `data.reason`. */
function refused(reason: string): Error {
  return rpcError(-32602, 'Invalid or expired requestState', { reason });
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The multi round-trip material of one `tools/call` (lifted from its params by the SDK). */
export interface RoundInput {
  /** `ctx.mcpReq.inputResponses`: the answers that are objects. */
  inputResponses?: Record<string, unknown>;
  /** `ctx.mcpReq.droppedInputResponseKeys`: answers that were not objects. */
  dropped?: string[];
  /** The raw `requestState` echoed by the client. */
  requestState?: unknown;
  /** The request's `_meta` client capabilities. */
  capabilities: Record<string, unknown>;
}

/** One call's questions and answers: the interaction to run with, and what the run left unanswered. */
export class Round {
  /** Questions the run asked and no answer covered, by key. */
  readonly pending: Record<string, InputRequest> = {};
  /** A malformed answer: the call's answer is -32602 with this message. */
  malformed?: string;
  private readonly used: Record<string, unknown> = {};
  private readonly asked: Record<string, string> = {};
  private readonly counts = new Map<string, number>();
  private readonly answers: Record<string, unknown>;
  private readonly answersGiven: Record<string, unknown>;
  private fill?: StopFill & { k: string };

  private constructor(
    private readonly tool: string,
    private readonly args: unknown,
    private readonly prior: StatePayload | undefined,
    input: RoundInput,
    private readonly stateKey: string | undefined,
    private hash?: string,
  ) {
    this.answers = { ...prior?.r, ...input.inputResponses };
    this.answersGiven = input.inputResponses ?? {};
  }

  /** The digest of the call's arguments, made when a state is checked or minted (most rounds do neither). */
  private get argsHash(): string {
    return (this.hash ??= digest(this.args ?? {}));
  }

  /**
   * Checks the round's material before anything runs.
   * @throws a JSON-RPC -32602 for an answer that is not an object, or a `requestState` that is not a
   *   string, fails verification, has expired, or was minted for another tool or other arguments.
   */
  static open(tool: string, args: unknown, input: RoundInput, stateKey: string | undefined): Round | Promise<Round> {
    if (input.dropped?.length)
      throw rpcError(
        -32602,
        `Invalid params: inputResponses.${input.dropped[0]} must be the result object of the request it answers`,
        { reason: 'invalid_input_response', key: input.dropped[0] },
      );
    // a first call echoes no state: nothing to verify, so no promise (most calls)
    if (input.requestState === undefined) return new Round(tool, args, undefined, input, stateKey);
    return Round.verified(tool, args, input, stateKey);
  }

  /** {@link open} for a call that echoes a `requestState`: verified, and minted for this very call. */
  private static async verified(
    tool: string,
    args: unknown,
    input: RoundInput,
    stateKey: string | undefined,
  ): Promise<Round> {
    if (typeof input.requestState !== 'string') throw refused('invalid_request_state');
    let prior: StatePayload;
    try {
      prior = (await stateCodec(stateKey).verify(input.requestState, undefined as never)) as StatePayload;
    } catch {
      throw refused('invalid_request_state');
    }
    if (!isObj(prior) || typeof prior.n !== 'string') throw refused('invalid_request_state');
    const argsHash = digest(args ?? {});
    if (prior.t !== tool || prior.a !== argsHash) throw refused('request_state_for_another_call');
    return new Round(tool, args, prior, input, stateKey, argsHash);
  }

  /** The `input_required` result for what the run left unanswered, or undefined when nothing was. */
  result(): Promise<Record<string, unknown>> | undefined {
    if (!Object.keys(this.pending).length) return undefined; // nothing asked: no promise
    return this.minted();
  }

  /** The `input_required` result of the questions pending, with the state the retry echoes. */
  private async minted(): Promise<Record<string, unknown>> {
    const state: StatePayload = {
      t: this.tool,
      a: this.argsHash,
      r: this.used,
      q: this.asked,
      ...(this.fill ? { f: this.fill } : {}),
      n: randomBytes(16).toString('base64url'),
    };
    return {
      resultType: 'input_required',
      inputRequests: this.pending,
      requestState: await stateCodec(this.stateKey).mint(state, undefined as never),
    };
  }

  /**
   * Asks one question: its answer when this round has one for the same question (an answer from
   * an earlier round counts only for the question it was given to), else the question joins
   * `pending` and the run stops once the questions asked in this turn are collected.
   */
  private ask<T>(key0: string, request: InputRequest, parse: (answer: unknown) => T | string): Promise<T> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(key0))
      return Promise.reject(
        new TypeError(`ask option key ${JSON.stringify(key0)}: use 1 to 64 letters, digits, _ or -`),
      );
    const n = (this.counts.get(key0) ?? 0) + 1;
    this.counts.set(key0, n);
    const key = n === 1 ? key0 : `${key0}-${n}`;
    const h = digest(request);
    this.asked[key] = h;
    const answer = this.answers[key];
    const known = this.prior ? this.prior.q[key] === h : true; // without a state: a first round answered ahead
    if (answer !== undefined && known) {
      const value = parse(answer);
      if (typeof value === 'string') {
        this.malformed ??= `Invalid params: inputResponses.${key} ${value}`;
        return Promise.reject(new AxError('validation_error', `the answer to ${key} is malformed: ${value}`));
      }
      this.used[key] = answer;
      return Promise.resolve(value);
    }
    this.pending[key] = request;
    // the run stops after this turn, so questions asked together (Promise.all) go out together; what
    // stops it is a round, not an interruption (a handler that catches it sees `input_round`)
    return new Promise((_, reject) =>
      setImmediate(() => reject(new AxError(INPUT_ROUND, `the client is asked ${key} (an input_required result)`))),
    );
  }

  /**
   * The answer to the stop form the last round asked (stop-input.ts): the arguments it adds to the
   * call (the step's own, then the fields the user filled in), `declined` when the user declined or
   * cancelled, undefined when no form was asked or this retry does not answer it. A malformed
   * answer sets {@link malformed}.
   */
  stopAnswer(): Record<string, unknown> | 'declined' | undefined {
    const f = this.prior?.f;
    const a = f ? this.answers[f.k] : undefined;
    if (!f || a === undefined) return undefined;
    const answer = elicitAnswer(a);
    if (typeof answer === 'string') {
      this.malformed ??= `Invalid params: inputResponses.${f.k} ${answer}`;
      return undefined;
    }
    if (answer.action !== 'accept') return 'declined';
    const content = answer.content ?? {};
    return {
      ...f.fixed,
      ...Object.fromEntries(f.fields.filter((k) => Object.hasOwn(content, k)).map((k) => [k, content[k]])),
    };
  }

  /** Asks the client to fill in a stop's form: the retry runs the same call with the answer added. */
  askStop(key: string, request: InputRequest, fill: StopFill): void {
    this.pending[key] = request;
    this.asked[key] = digest(request);
    this.fill = { k: key, ...fill };
  }

  /**
   * The state this call answers, when it echoed one: its nonce and a digest of the answers given,
   * so the answered round runs once (answered.ts).
   */
  answering(): { nonce: string; answers: string } | undefined {
    return this.prior ? { nonce: this.prior.n, answers: digest(this.answersGiven) } : undefined;
  }

  /** The {@link Interaction} a run of this call asks through: only what the request's capabilities declare. */
  interaction(capabilities: Record<string, unknown>): Interaction {
    const out: Interaction = {};
    if (formCapable(capabilities))
      out.elicit = (message, schema, _signal, key) =>
        this.ask(
          key,
          { method: 'elicitation/create', params: { message, requestedSchema: schema as never } },
          elicitAnswer,
        );
    if (capabilities.sampling)
      out.sample = (req, _signal, key) =>
        this.ask(key, { method: 'sampling/createMessage', params: samplingParams(req) }, sampleAnswer);
    if (capabilities.roots)
      out.roots = (_signal, key) => this.ask(key, { method: 'roots/list', params: {} }, rootsAnswer);
    return out;
  }
}

/** An `ElicitResult`, or why it is not one. */
export function elicitAnswer(a: unknown): ElicitAnswer | string {
  if (!isObj(a) || !['accept', 'decline', 'cancel'].includes(a.action as string))
    return 'must be an elicitation result: {"action": "accept" | "decline" | "cancel", "content"?: {…}}';
  if (a.content !== undefined && !isObj(a.content)) return 'has a "content" that is not an object';
  return { action: a.action as ElicitAnswer['action'], ...(a.content ? { content: a.content as never } : {}) };
}

/** A `CreateMessageResult` (its text parts), or why it is not one. */
export function sampleAnswer(a: unknown): SampleResult | string {
  const parts = isObj(a) ? (Array.isArray(a.content) ? a.content : [a.content]) : [];
  if (!isObj(a) || !parts.length || !parts.every(isObj))
    return 'must be a sampling result: {"role", "content": {"type": "text", "text"}, "model"}';
  const text = parts.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
  return {
    text,
    model: typeof a.model === 'string' ? a.model : '',
    role: a.role === 'user' ? 'user' : 'assistant',
    ...(typeof a.stopReason === 'string' ? { stopReason: a.stopReason } : {}),
  };
}
