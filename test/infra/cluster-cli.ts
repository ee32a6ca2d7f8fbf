// Starts the test cluster (test/infra/cluster.ts: redis-server, three stateless replicas, nginx)
// for `.ci/run`, writes its addresses as shell assignments to the file named by the first argument
// (AX_LB_URL, AX_REDIS_URL, AX_REPLICA_URLS), and keeps it running until SIGTERM or SIGINT, then
// stops every part and exits 0. Exit 1 (with the reason on stderr) if it cannot start.
import { renameSync, writeFileSync } from 'node:fs';
import { startCluster } from './cluster.ts';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: cluster-cli.ts <env-file>\n');
  process.exit(2);
}
let cluster;
try {
  cluster = await startCluster({ replicas: 3 });
} catch (e) {
  process.stderr.write(`cluster: ${(e as Error).message}\n`);
  process.exit(1);
}
const lines = [
  `AX_LB_URL=${cluster.lbUrl}`,
  `AX_REDIS_URL=${cluster.redisUrl}`,
  `AX_REPLICA_URLS=${cluster.replicaUrls.join(',')}`,
];
writeFileSync(`${out}.tmp`, `${lines.join('\n')}\n`);
renameSync(`${out}.tmp`, out); // whoever waits for the file sees it whole
process.stderr.write(`cluster: nginx ${cluster.lbUrl} → ${cluster.replicaUrls.join(' ')}; redis ${cluster.redisUrl}\n`);
const stop = async () => {
  await cluster.stop();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
setInterval(() => {}, 1 << 30); // stay up until told to stop
