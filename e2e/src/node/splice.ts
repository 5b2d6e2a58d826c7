/** Joining two sockets: the bridge (inside the node's namespace) and its client (outside) both forward this way. */
import type { Socket } from 'node:net';

/** Copies bytes both ways between `a` and `b` (resuming `a` if it was paused); either side ending ends both. */
export function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.resume();
  const close = (): void => {
    a.destroy();
    b.destroy();
  };
  for (const socket of [a, b]) {
    socket.on('error', close);
    socket.on('close', close);
  }
}
