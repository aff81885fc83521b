// Which swarm this tab is in and how it joins: config, its id, pause/leave, storage.
import { createStore } from 'zustand/vanilla'
import type { SwarmConfig } from '../../core/config/swarm-config.ts'

export interface StorageInfo {
  usage: number
  quota: number
  persisted: boolean
}

export interface SettingsState {
  configUrl: string
  config: SwarmConfig | null
  swarmId: string | null
  configError: string | null
  /** paused: connected but not publishing; left: node stopped until "rejoin" */
  participation: 'active' | 'paused' | 'left'
  storage: StorageInfo | null
}

export const settingsStore = createStore<SettingsState>()(() => ({
  configUrl: '/swarm.json',
  config: null,
  swarmId: null,
  configError: null,
  participation: 'active',
  storage: null,
}))
