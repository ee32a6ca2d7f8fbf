/** Entry point of the `tasks` demo CLI: `node --import tsx cmd/tasks/main.ts <args>`. */
import { main } from '../../lib/index.ts';
import { buildTasksCli } from './cli.ts';

void main(buildTasksCli());
