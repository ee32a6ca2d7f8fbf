/**
 * The cap on open connections, kept reachable (docs/mcp-server.md#held-connections). Node's own
 * `server.maxConnections` closes every connection past the cap, so whoever holds the cap — one local
 * process opening 1,024 sockets and never finishing a request, no token needed — locks every
 * legitimate client out until the holders time out, and can hold it again at once. Here a connection
 * past the cap evicts the oldest open connection that is *waiting*: one that has not delivered a
 * complete request head since it opened or since its last response ended (a stalled or idle
 * keep-alive socket). A connection whose request is being served — a call, a long SSE stream — is
 * never evicted; only when every connection is busy is the new one closed, unanswered, as before.
 * A client's request is parsed within milliseconds of its connect, so it is the newest waiting
 * connection when the next one arrives, and the holders' oldest sockets go first.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Installs the cap on `server`: at most `max` connections open at once, making room by evicting the
 * oldest waiting connection. Call before `listen`.
 * @returns how many connections were evicted so far (for the server's log and tests).
 */
export function capConnections(server: Server, max: number): () => number {
  // every open connection is waiting (insertion-ordered: oldest first) or busy with n requests
  // (more than one when a client pipelines)
  const waiting = new Set<Socket>();
  const busy = new Map<Socket, number>();
  let evicted = 0;
  server.on('connection', (socket: Socket) => {
    if (waiting.size + busy.size >= max) {
      const oldest = waiting.values().next();
      if (oldest.done) {
        socket.destroy();
        return;
      }
      waiting.delete(oldest.value);
      oldest.value.destroy();
      evicted++;
    }
    waiting.add(socket);
    socket.once('close', () => {
      waiting.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    if (socket.destroyed) return;
    let counted = false;
    // busy once the whole request has arrived, body included: a connection stalled mid-body is still
    // waiting (else 1,024 heads with bodies never sent would lock the cap for the request timeout)
    const arrived = () => {
      if (counted || socket.destroyed || res.writableEnded) return;
      counted = true;
      waiting.delete(socket);
      busy.set(socket, (busy.get(socket) ?? 0) + 1);
    };
    req.once('end', arrived); // a body, read to its end by the guard
    setImmediate(() => req.complete && arrived()); // no body (GET, DELETE): complete once parsed
    res.once('close', () => {
      if (!counted) return;
      const n = busy.get(socket);
      if (n === undefined) return; // the connection closed
      if (n > 1) return void busy.set(socket, n - 1);
      busy.delete(socket);
      if (!socket.destroyed) waiting.add(socket); // an idle keep-alive socket: its age starts again now
    });
  });
  return () => evicted;
}
