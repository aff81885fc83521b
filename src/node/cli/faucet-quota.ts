// How often the app server's faucet (faucet.ts) gives: a grant per address per hour, and a ceiling on
// grants per hour for all addresses together. Pure bookkeeping; the caller passes the time.

/**
 * Grants one address may get per hour. A burner is topped up when it is new (100 ETH lasts a tab
 * thousands of transactions on the local chain); another grant within the hour would only feed a
 * script that drains it.
 */
export const FAUCET_GRANTS_PER_ADDRESS_PER_HOUR = 1
/**
 * Grants per hour over all addresses. Bounds what the server remembers (one entry per grant, about
 * 1 MiB at most) and the accounts a stranger on the LAN can create, while a room full of tabs, each
 * with its own burner, stays far below it.
 */
export const FAUCET_GRANTS_PER_HOUR = 10_000
export const FAUCET_WINDOW_MS = 60 * 60 * 1000

export interface FaucetRefusal {
  /** the address had its grants; or every address together had */
  reason: 'address' | 'everyone'
  /** unix ms when a grant is possible again */
  retryAt: number
}

export class FaucetQuota {
  /** every grant within the window, oldest first */
  private readonly recent: { at: number; address: string }[] = []
  /** grant times per address (lower case), oldest first */
  private readonly byAddress = new Map<string, number[]>()

  constructor(
    private readonly perAddress = FAUCET_GRANTS_PER_ADDRESS_PER_HOUR,
    private readonly total = FAUCET_GRANTS_PER_HOUR,
  ) {}

  /** Why `address` may not get a grant at `now`; null when it may. */
  refusal(address: string, now: number): FaucetRefusal | null {
    this.forgetBefore(now - FAUCET_WINDOW_MS)
    const mine = this.byAddress.get(address.toLowerCase()) ?? []
    if (mine.length >= this.perAddress) return { reason: 'address', retryAt: mine[0]! + FAUCET_WINDOW_MS }
    if (this.recent.length >= this.total)
      return { reason: 'everyone', retryAt: this.recent[0]!.at + FAUCET_WINDOW_MS }
    return null
  }

  record(address: string, now: number): void {
    const key = address.toLowerCase()
    this.recent.push({ at: now, address: key })
    const mine = this.byAddress.get(key)
    if (mine) mine.push(now)
    else this.byAddress.set(key, [now])
  }

  /** how many grants it remembers (all within the last hour) */
  get size(): number {
    return this.recent.length
  }

  private forgetBefore(cutoff: number): void {
    while (this.recent.length > 0 && this.recent[0]!.at <= cutoff) {
      const { address } = this.recent.shift()!
      const mine = this.byAddress.get(address)!
      mine.shift()
      if (mine.length === 0) this.byAddress.delete(address)
    }
  }
}
