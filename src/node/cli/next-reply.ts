// The next IPC message from a child process (the test and bench helpers that run libp2p peers or a relay
// in a process of their own), or an error naming `what` when it exits or stays silent.
import type { ChildProcess } from 'node:child_process'

export function nextReply<R>(child: ChildProcess, timeoutMs: number, what: string): Promise<R> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer)
      child.off('message', onMessage)
      child.off('exit', onExit)
    }
    const onMessage = (message: unknown): void => {
      done()
      resolve(message as R)
    }
    const onExit = (code: number | null): void => {
      done()
      reject(new Error(`${what} process exited (code ${code})`))
    }
    const timer = setTimeout(() => {
      done()
      reject(new Error(`${what} did not answer within ${timeoutMs} ms`))
    }, timeoutMs)
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}
