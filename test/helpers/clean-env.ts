/**
 * Every test process starts without the marks of the agent running the suite (CLAUDECODE, AGENT,
 * CODEX_SANDBOX…: lib/platform/agent.ts), so the programs it starts see a person's environment
 * unless a test sets one: run inside an agent or not, the suite asserts the same things. Also
 * AGENT_MODE, which switches output modes. Loaded by test/vitest.config.ts (setupFiles).
 */
import { AGENT_VARIABLES } from '../../lib/platform/agent.ts';

for (const { variable } of AGENT_VARIABLES) delete process.env[variable];
delete process.env.AGENT_MODE;
