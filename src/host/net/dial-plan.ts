// Which address to dial for a discovered peer — pure, so the rules are tested apart from libp2p.
//
// Rules (runtime-notes.md, "Dialing pitfalls"):
// - between two browser peers (both only reachable through a relay) only the smaller peer id dials,
//   otherwise every pair ends with two connections;
// - peer-store circuit addresses lose their trailing /p2p/<target> (dialing them then returns the relay
//   connection) and may lack /webrtc: rebuild them as <relay>/p2p-circuit/webrtc/p2p/<target>;
// - a peer with a direct address (a Node peer listening on WebSockets) is dialed directly, whoever is
//   smaller, since it cannot dial a browser back.

export interface DialCandidate {
  /** multiaddr string to dial */
  addr: string
  kind: 'webrtc' | 'websockets'
}

const P2P = /\/p2p\/[^/]+$/

export function planDial(self: string, target: string, addrs: readonly string[]): DialCandidate | null {
  if (self === target) return null
  const direct = addrs.find((a) => /\/(ws|wss|tls\/ws)(\/|$)/.test(a) && !a.includes('/p2p-circuit'))
  if (direct) return { addr: withTarget(direct, target), kind: 'websockets' }
  const circuit = addrs.find((a) => a.includes('/p2p-circuit'))
  if (!circuit || self > target) return null
  const relayPart = circuit.slice(0, circuit.indexOf('/p2p-circuit'))
  return { addr: `${relayPart}/p2p-circuit/webrtc/p2p/${target}`, kind: 'webrtc' }
}

function withTarget(addr: string, target: string): string {
  if (addr.endsWith(`/p2p/${target}`)) return addr
  return `${addr.replace(P2P, '')}/p2p/${target}`
}
