// The chain side of the Train leaderboard: SwarmCoordinator's claims and winner votes (read and proven by
// src/host/rewards/chain-leaderboard.ts), read again on each new block while the view is open. Without a
// deployment there is no chain to read; a failed read keeps the last board and says why.
import { useEffect, useState } from 'react'
import { startBlockPoller } from '../../host/chain/block-poller.ts'
import { readLeaderboard } from '../../host/rewards/chain-leaderboard.ts'
import type { ChainDeployment } from '../../host/chain/deployment.ts'
import { errorSentence } from '../../host/chain/error-sentence.ts'
import type { Leaderboard } from '../../host/rewards/leaderboard.ts'
import { REMOTE_POLLING_MS } from '../../host/wallet/wallet-config.ts'
import {
  deploymentReadClient,
  deploymentRpcUrl,
  isLocalDeployment,
} from '../../host/chain/deployment-client.ts'
import { useWalletStore } from '../stores.ts'

/**
 * How often the local chain's block number is polled for the board. Slower than the markets' 500 ms:
 * a full read walks every claim and every vote event, and rewards move once per round.
 */
const LOCAL_BOARD_POLL_MS = 2_000

export type ChainBoard =
  | { status: 'loading' }
  /** no chain configured: `note` says why */
  | { status: 'none'; note: string }
  /** `error` set when the latest read failed and `board` is the last good one */
  | { status: 'ready'; board: Leaderboard; error: string | null }
  | { status: 'error'; error: string }

export function useChainLeaderboard(): ChainBoard {
  const deployment = useWalletStore((s) => s.deployment)
  const note = useWalletStore((s) => s.deploymentNote)
  const networks = useWalletStore((s) => s.networks)
  // the board read for `from`; a board of another deployment (or none yet) reads as loading
  const [read, setRead] = useState<{ from: ChainDeployment; board: ChainBoard } | null>(null)

  useEffect(() => {
    if (!deployment) return
    const rpcUrl = deploymentRpcUrl(deployment)
    const client = deploymentReadClient(rpcUrl)
    const local = isLocalDeployment(deployment)
    let stopped = false // a read still in flight when the view closes or the deployment changes
    const set = (next: (prev: ChainBoard | null) => ChainBoard) =>
      setRead((r) =>
        stopped ? r : { from: deployment, board: next(r?.from === deployment ? r.board : null) },
      )
    const poller = startBlockPoller({
      blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
      intervalMs: () => (local ? LOCAL_BOARD_POLL_MS : REMOTE_POLLING_MS),
      onBlock: async () => {
        const board = await readLeaderboard(client, deployment)
        set(() => ({ status: 'ready', board, error: null }))
      },
      onError: (err) => {
        const error = `The chain's leaderboard could not be read: ${errorSentence(err, { rpcUrl })}`
        set((b) => (b?.status === 'ready' ? { ...b, error } : { status: 'error', error }))
      },
    })
    return () => {
      stopped = true
      poller.stop()
    }
  }, [deployment, networks])

  if (!deployment) return note ? { status: 'none', note } : { status: 'loading' }
  return read?.from === deployment ? read.board : { status: 'loading' }
}
