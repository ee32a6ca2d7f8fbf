/**
 * The `tasks` demo CLI: a small task tracker built only on ax-ts's public API. `buildTasksCli()`
 * returns a fresh tree each call, so tests can run it in-process; `main.ts` runs it as a program.
 */
import { Command, resolveVersion } from '../../lib/index.ts';
import { mountMcpServer } from '../../mcp/index.ts';
import { addCommand } from './commands/add.ts';
import { doneCommand } from './commands/done.ts';
import { exportCommand } from './commands/export.ts';
import { listCommand } from './commands/list.ts';
import { rmCommand } from './commands/rm.ts';
import { showCommand } from './commands/show.ts';

/** Builds the `tasks` command tree. */
export function buildTasksCli(): Command {
  const root = new Command({
    use: 'tasks',
    short: 'The ax-ts demo task tracker',
    long:
      'tasks is the demo CLI of ax-ts: a small task tracker kept in one JSON file.\n' +
      'Every command speaks the ax-ts machine contract: JSON envelopes when piped or with --format json\n' +
      '(one JSON error line on stderr on failure, stable exit codes), readable text on a terminal.\n' +
      'The store is --store, else $TASKS_FILE, else ' +
      '$XDG_DATA_HOME/ax-tasks/tasks.json or ~/.local/share/ax-tasks/tasks.json.',
    example: ['tasks add buy milk -t home', 'tasks list', 'tasks done 1', 'tasks export --format json'].join('\n'),
    // The version of the package that owns this file (0.0.0-unknown when none is found).
    version: resolveVersion(undefined, import.meta.url),
    persistentFlags: {
      store: {
        type: 'string',
        // which file the program reads and writes is the operator's choice, never an MCP client's
        mcp: false,
        // a file: completion offers .json files, and mcp-server --print-config carries it made absolute
        fileExts: ['json'],
        usage:
          'path of the task store file (default: $TASKS_FILE, else ' +
          '$XDG_DATA_HOME/ax-tasks/tasks.json or ~/.local/share/ax-tasks/tasks.json)',
      },
    },
    commands: [addCommand(), listCommand(), showCommand(), doneCommand(), rmCommand(), exportCommand()],
  });
  mountMcpServer(root, {
    instructions:
      'A task tracker kept in one JSON file. Tools: add, list, show, done, rm, export. ' +
      'Each result is the JSON envelope the tasks CLI prints; a failure ' +
      'is an isError result whose error object has an actionable_fix. ' +
      "rm needs yes: true, which you should set only with the user's consent.",
  });
  return root;
}
