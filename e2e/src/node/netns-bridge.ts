/**
 * The one door into the node's network namespace, for the test process outside it: runs *inside* the namespace
 * (started with nsenter), listens on a Unix socket — a file, which both namespaces see — and for each connection
 * reads one line `<ip> <port>\n`, connects to that address inside the namespace and then copies bytes both ways.
 *
 * Only IP literals inside the networks given on the command line are dialled (the node's loopback, node address,
 * pod and Service ranges); anything else closes the connection. The namespace has no way out anyway; this keeps
 * the door from being used for anything but the test cluster.
 *
 * Usage: node netns-bridge.ts <socket path> <cidr>[,<cidr>...]
 */
import { BlockList, createConnection, createServer, isIP, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { splice } from './splice.ts';

const [socketPath, networks] = process.argv.slice(2);
if (!socketPath || !networks) {
  process.stderr.write('usage: netns-bridge.ts <socket path> <cidr>[,<cidr>...]\n');
  process.exit(2);
}

const allowed = new BlockList();
for (const network of networks.split(',')) {
  const [address, bits] = network.split('/');
  allowed.addSubnet(address!, Number(bits ?? 32), 'ipv4');
}

/** The target a client asked for, or why it may not have it. */
function parseTarget(line: string): { host: string; port: number } | { refused: string } {
  const [host, portText] = line.trim().split(' ');
  const port = Number(portText);
  if (!host || isIP(host) !== 4) return { refused: `not an IPv4 literal: ${JSON.stringify(host)}` };
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { refused: `bad port ${JSON.stringify(portText)}` };
  if (!allowed.check(host, 'ipv4')) return { refused: `${host} is outside the test cluster's networks` };
  return { host, port };
}

function serve(client: Socket): void {
  let header = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
    header = Buffer.concat([header, chunk]);
    const newline = header.indexOf(0x0a);
    if (newline < 0) {
      if (header.length > 256) client.destroy();
      return;
    }
    client.off('data', onData);
    client.pause();
    const target = parseTarget(header.subarray(0, newline).toString('utf8'));
    if ('refused' in target) {
      process.stderr.write(`refused: ${target.refused}\n`);
      client.destroy();
      return;
    }
    const rest = header.subarray(newline + 1);
    const upstream = createConnection({ host: target.host, port: target.port });
    upstream.once('connect', () => {
      if (rest.length > 0) upstream.write(rest);
      splice(client, upstream);
    });
    upstream.once('error', () => client.destroy());
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
}

rmSync(socketPath, { force: true });
const server = createServer(serve);
server.listen(socketPath, () => process.stdout.write(`listening on ${socketPath}\n`));
const stop = (): void => {
  server.close();
  rmSync(socketPath, { force: true });
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
