// The app's views, in nav order. Adding a view is one line here. Each view is its own chunk, loaded when
// it is first shown: the first paint parses the shell and one view, not the markets' or the wallet's code.
import { lazy, type ComponentType } from 'react'

/** A view loaded on first show: its module and the name its component is exported under. */
const lazyView = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })))

export interface ViewDef {
  /** route id: the view lives at #/<id> */
  id: string
  label: string
  Component: ComponentType
}

export const VIEWS: readonly ViewDef[] = [
  { id: 'swarm', label: 'Swarm', Component: lazyView(() => import('./swarm/SwarmView.tsx'), 'SwarmView') },
  { id: 'train', label: 'Train', Component: lazyView(() => import('./train/TrainView.tsx'), 'TrainView') },
  { id: 'solve', label: 'Solve', Component: lazyView(() => import('./solve/SolveView.tsx'), 'SolveView') },
  {
    id: 'markets',
    label: 'Markets',
    Component: lazyView(() => import('./markets/MarketsView.tsx'), 'MarketsView'),
  },
  {
    id: 'wallet',
    label: 'Wallet',
    Component: lazyView(() => import('./wallet/WalletView.tsx'), 'WalletView'),
  },
  {
    id: 'verify',
    label: 'Verify',
    Component: lazyView(() => import('./verify/VerifyView.tsx'), 'VerifyView'),
  },
  {
    id: 'settings',
    label: 'Settings',
    Component: lazyView(() => import('./settings/SettingsView.tsx'), 'SettingsView'),
  },
]

export const DEFAULT_VIEW = 'swarm'
export const VIEW_IDS: readonly string[] = VIEWS.map((v) => v.id)
