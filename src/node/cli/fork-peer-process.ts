// Forks a TypeScript entry that runs Node libp2p peers (test and bench helpers). libp2p's WebSocket
// dialer needs a global WebSocket, which Node 20 only has behind --experimental-websocket.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const tsRegister = fileURLToPath(new URL('../../polyfills/register.js', import.meta.url))

export function forkPeerProcess(
  entry: string,
  args: string[],
): { child: ChildProcess; exited: Promise<void> } {
  const needsWebSocketFlag = typeof globalThis.WebSocket === 'undefined'
  const child = fork(entry, args, {
    execArgv: [
      ...(needsWebSocketFlag ? ['--experimental-websocket', '--disable-warning=ExperimentalWarning'] : []),
      '--import',
      tsRegister,
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return { child, exited }
}
