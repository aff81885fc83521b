// Polls a chain's block number and reads everything again on each new block, after a failure heals,
// and when poked (right after this tab sent a transaction). One read at a time: the next poll is
// scheduled only when the previous one has finished, so a slow RPC never piles requests up.

export interface BlockPoller {
  stop(): void
  /** read now instead of at the next tick */
  poke(): void
}

export interface BlockPollerOptions {
  blockNumber: () => Promise<bigint>
  /** read at most this often (the app polls a local chain every 500 ms) */
  intervalMs: () => number
  /** reads the state at block `n`; a throw counts as a failed poll */
  onBlock: (n: bigint) => Promise<void>
  onError: (err: unknown) => void
}

export function startBlockPoller(options: BlockPollerOptions): BlockPoller {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let last: bigint | null = null
  let failing = false
  let force = true
  const tick = async (): Promise<void> => {
    timer = undefined
    try {
      const n = await options.blockNumber()
      if (stopped) return
      if (force || failing || n !== last) {
        force = false
        await options.onBlock(n)
        last = n
        failing = false
      }
    } catch (err) {
      if (stopped) return
      failing = true
      options.onError(err)
    }
    if (!stopped) timer = setTimeout(() => void tick(), options.intervalMs())
  }
  void tick()
  return {
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
    poke() {
      force = true
      if (timer && !stopped) {
        clearTimeout(timer)
        void tick()
      }
    },
  }
}
