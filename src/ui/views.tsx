// The app's views, in nav order. Adding a view is one line here.
import type { ComponentType } from 'react'
import { MarketsView } from './markets/MarketsView.tsx'
import { SettingsView } from './settings/SettingsView.tsx'
import { SolveView } from './solve/SolveView.tsx'
import { SwarmView } from './swarm/SwarmView.tsx'
import { TrainView } from './train/TrainView.tsx'
import { VerifyView } from './verify/VerifyView.tsx'
import { WalletView } from './wallet/WalletView.tsx'

export interface ViewDef {
  /** route id: the view lives at #/<id> */
  id: string
  label: string
  Component: ComponentType
}

export const VIEWS: readonly ViewDef[] = [
  { id: 'swarm', label: 'Swarm', Component: SwarmView },
  { id: 'train', label: 'Train', Component: TrainView },
  { id: 'solve', label: 'Solve', Component: SolveView },
  { id: 'markets', label: 'Markets', Component: MarketsView },
  { id: 'wallet', label: 'Wallet', Component: WalletView },
  { id: 'verify', label: 'Verify', Component: VerifyView },
  { id: 'settings', label: 'Settings', Component: SettingsView },
]

export const DEFAULT_VIEW = 'swarm'
export const VIEW_IDS: readonly string[] = VIEWS.map((v) => v.id)
