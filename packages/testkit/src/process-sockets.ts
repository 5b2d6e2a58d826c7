/**
 * The TCP sockets a process owns, read from /proc: how tests prove the network-safety rule
 * (listen and connect on 127.0.0.0/8 only) for the real programs they start.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** One TCP socket of a process. */
export interface ProcessSocket {
  state: 'listen' | 'established' | 'other';
  local: string;
  remote: string;
}

// /proc/net/tcp state codes: 01 ESTABLISHED, 0A LISTEN.
const STATES: Record<string, ProcessSocket['state']> = { '01': 'established', '0A': 'listen' };

/** Every IPv4/IPv6 TCP socket owned by `pid`, with addresses as `a.b.c.d` (IPv6 as `ipv6:<hex>`). */
export function tcpSockets(pid: number): ProcessSocket[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(join(`/proc/${pid}/fd`, fd)));
      if (match?.[1]) inodes.add(match[1]);
    } catch {
      // The descriptor was closed meanwhile.
    }
  }
  const sockets: ProcessSocket[] = [];
  for (const table of ['tcp', 'tcp6'] as const) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [local, remote, state, inode] = [cols[1], cols[2], cols[3], cols[9]];
      if (!local || !remote || !state || !inode || !inodes.has(inode)) continue;
      sockets.push({ state: STATES[state] ?? 'other', local: address(local, table), remote: address(remote, table) });
    }
  }
  return sockets;
}

/** True for 127.0.0.0/8 and for IPv6 loopback or IPv4-mapped loopback. */
export function isLoopback(address: string): boolean {
  if (address.startsWith('127.')) return true;
  return address === 'ipv6:00000000000000000000000001000000' || /^ipv6:0000000000000000FFFF0000[0-9A-F]{6}7F$/i.test(address);
}

function address(hexWithPort: string, table: 'tcp' | 'tcp6'): string {
  const hex = hexWithPort.split(':')[0] ?? '';
  // IPv4 addresses are stored as a little-endian 32-bit number.
  return table === 'tcp' ? [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.') : `ipv6:${hex}`;
}
