/**
 * A tool's call plan: what every call of one tool on one server shares, decided once, on the tool's
 * first call (docs/performance.md#mcp-per-call-the-contracts-own-work): the tool's 2025-era
 * definition (its inputSchema checks the arguments), and the part of its in-process run's options
 * that is the server's, not the call's — the environment, version and presets, where the trace
 * settings are read and a span's debug line goes, the mount, the idempotency store. A call adds only
 * what is its own: its signal, progress and log channels, the client channel, its trace context and
 * how its next steps name tools; its arguments are still checked, and its ids made, per call.
 */
import { writeSync } from 'node:fs';
import type { InvokeOptions } from '../../lib/run/invoke.ts';
import type { ToolDef, ToolRef } from '../../lib/schema/walk.ts';
import { defOf, traceEnvOf } from './tools.ts';
import type { McpModel, McpServerOptions } from './model.ts';

/** What the calls of one tool on one server share (see the module's comment). */
export interface CallPlan {
  /** The tool's 2025-era definition. */
  readonly def: ToolDef;
  /** The server's part of each call's run options (lib/run/invoke.ts). */
  readonly invoke: Readonly<InvokeOptions>;
}

const plans = new WeakMap<McpServerOptions, WeakMap<ToolRef, CallPlan>>();

/** The call plan of `ref` on the server of `options`, made on its first call. */
export function callPlan(model: McpModel, options: McpServerOptions, ref: ToolRef): CallPlan {
  let byRef = plans.get(options);
  if (!byRef) plans.set(options, (byRef = new WeakMap()));
  let plan = byRef.get(ref);
  if (!plan) {
    const invoke: InvokeOptions = {
      env: options.env,
      version: options.version,
      presets: options.presets,
      traceEnv: traceEnvOf(options),
      onSpan: spanWriter(options),
      toolBase: model.mount,
      idempotencyStore: options.idempotencyStore,
      idempotencyTtlMs: options.idempotencyTtlMs,
    };
    byRef.set(ref, (plan = { def: defOf(model, ref), invoke }));
  }
  return plan;
}

/**
 * Where a call's span goes under `AX_OTEL_DEBUG`: the server's diagnostics (`options.log`), else
 * its stderr written directly (fd 2), which no call's printed-output capture sees.
 */
export function spanWriter(options: McpServerOptions): (line: string) => void {
  return options.log ? (line) => options.log!(line.trimEnd()) : (line) => void writeSync(2, line);
}
