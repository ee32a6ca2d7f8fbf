/**
 * `ctx.progress`: reports that only rise, and a progress line drawn for a person. MCP says the
 * progress value of `notifications/progress` MUST increase with each notification, so a report whose
 * `done` is not above the last one (or is not a finite number) is dropped on every path. A person
 * on a terminal (human mode, stderr a terminal, no agent and no CI)
 * sees the reports as one line on stderr, redrawn in place and erased when the run ends or writes a
 * line of its own; json mode never draws. Source: MCP 2025-11-25 "Progress".
 */
import { visible, type OutputStream } from '../contract/envelope.ts';
import { detectAgent, isCI } from '../platform/agent.ts';

/** Erases the line the cursor is on and returns to its start (VT100: CR, then EL). */
const ERASE = '\r\x1b[K';

/** The progress of one run: the last report it let through, and whether a line is drawn. */
export class RunProgress {
  #last = -Infinity;
  #drawn = false;
  readonly #draw: boolean;

  /**
   * @param stderr the run's stderr (the line is drawn there only when it is a terminal).
   * @param human whether the run is in human mode.
   * @param env the run's environment (an agent or CI variable turns drawing off).
   * @param forward where reports that rise go (MCP `notifications/progress`, `onProgress`).
   */
  constructor(
    private readonly stderr: OutputStream,
    human: boolean,
    env: Record<string, string | undefined>,
    private readonly forward: ((done: number, total?: number, message?: string) => void) | undefined,
  ) {
    this.#draw = human && stderr.isTTY === true && detectAgent(env) === undefined && !isCI(env);
  }

  /** One report: forwarded and drawn when `done` rises, dropped otherwise. */
  report(done: number, total?: number, message?: string): void {
    if (typeof done !== 'number' || !Number.isFinite(done) || done <= this.#last) return;
    const whole = typeof total === 'number' && Number.isFinite(total) ? total : undefined;
    this.#last = done;
    this.forward?.(done, whole, message);
    if (!this.#draw) return;
    const pct = whole !== undefined && whole > 0 && whole >= done ? ` (${Math.floor((done / whole) * 100)}%)` : '';
    const text = `${message ? `${message} ` : ''}${done}${whole !== undefined ? `/${whole}` : ''}${pct}`;
    this.stderr.write(`${ERASE}${visible(text.replace(/[\r\n]/g, ' '))}`);
    this.#drawn = true;
  }

  /** Erases the drawn line, if any (before a line of the run's own, and when the run ends). */
  erase(): void {
    if (!this.#drawn) return;
    this.#drawn = false;
    this.stderr.write(ERASE);
  }
}
