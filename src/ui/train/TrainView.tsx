// The Train view (#/train): the learning swarm as this tab sees it. Round timer and model, charts of
// reward, held-out pass@1, loss and speed, the leaderboard from gossip and chain with per-peer detail,
// the gossip feed and the on-chain submissions. Everything comes from the learning store.
import { useMemo, useState } from 'react'
import { GossipFeed } from './GossipFeed.tsx'
import { LeaderboardPanel } from './LeaderboardPanel.tsx'
import { mergeLeaderboard } from './leaderboard-merge.ts'
import { PeerDetail } from './PeerDetail.tsx'
import { SubmissionsPanel } from './SubmissionsPanel.tsx'
import { TrainCharts } from './TrainCharts.tsx'
import { TrainHeader } from './TrainHeader.tsx'
import { useChainLeaderboard } from './use-chain-leaderboard.ts'
import './train.css'
import { trainBanner } from './train-banner.ts'
import { useLearningStore, useSettingsStore, useSwarmStore } from '../stores.ts'

/** The banner for the phases where there is nothing (or nothing new) to watch. */
function PhaseBanner() {
  const phase = useLearningStore((s) => s.phase)
  const message = useLearningStore((s) => s.message)
  const degraded = useLearningStore((s) => s.degraded)
  const rewardsWaitForRegistration = useLearningStore((s) => s.rewardsWaitForRegistration)
  const banner = trainBanner({ phase, message, degraded, rewardsWaitForRegistration })
  if (!banner) return null
  return (
    <div className={`banner tone-${banner.tone}`} role="status" data-testid="train-banner" data-phase={phase}>
      <span className="banner-dot" aria-hidden="true" />
      <div>
        <strong className="banner-title">{banner.title}</strong>
        <div className="banner-detail" data-testid="train-message">
          {banner.detail}
        </div>
      </div>
    </div>
  )
}

function Board() {
  const self = useSwarmStore((s) => s.self)
  const rounds = useLearningStore((s) => s.rounds)
  const peers = useLearningStore((s) => s.peers)
  const groupSize = useSettingsStore((s) => s.config?.learning?.groupSize ?? 0)
  const chain = useChainLeaderboard()
  const board = chain.status === 'ready' ? chain.board : null
  const rows = useMemo(
    () => mergeLeaderboard({ self, rounds, groupSize, peers, chain: board }),
    [self, rounds, groupSize, peers, board],
  )
  const [selected, setSelected] = useState<string | null>(null)
  const detail = rows.find((r) => r.peerId === selected)
  return (
    <div className="train-board">
      <LeaderboardPanel
        rows={rows}
        chain={chain}
        selected={selected}
        onSelect={(id) => setSelected((s) => (s === id ? null : id))}
      />
      {detail && <PeerDetail row={detail} onClose={() => setSelected(null)} />}
    </div>
  )
}

export function TrainView() {
  const phase = useLearningStore((s) => s.phase)
  return (
    <div className="view train-view">
      <TrainHeader />
      <PhaseBanner />
      {phase !== 'off' && (
        <>
          <TrainCharts />
          <Board />
          <div className="train-bottom">
            <GossipFeed />
            <SubmissionsPanel />
          </div>
        </>
      )}
    </div>
  )
}
