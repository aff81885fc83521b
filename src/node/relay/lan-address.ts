// A LAN address of this machine: what another machine on the network would dial. For the tests that
// show what listens beyond loopback (the stack on --host 0.0.0.0, the relay's per-address cap).
import { networkInterfaces } from 'node:os'

/** The first non-internal IPv4 address; undefined on a machine with loopback only. */
export function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address
}
