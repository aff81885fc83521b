// The learning swarm as the UI sees it: this peer's rounds (from the peer worker's reports), what it
// heard from others, the leaderboard's gossip side and the on-chain submissions. Written by the tab's
// learning wiring (src/host/start-learning.ts) and the submission queue; read by the Train view. The
// state's shape is plain data in src/core/learning/learning-state.ts.
import { createStore } from 'zustand/vanilla'
import { initialLearningState, type LearningState } from '../../core/learning/learning-state.ts'

export const learningStore = createStore<LearningState>()(initialLearningState)
