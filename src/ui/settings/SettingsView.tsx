// The Settings view: which swarm, how it is reached, local storage, participation, and Delphi's API.
import { DelphiSettingsCard } from './DelphiSettingsCard.tsx'
import { NetworkConfigCard } from './NetworkConfigCard.tsx'
import { ParticipationCard } from './ParticipationCard.tsx'
import { StorageCard } from './StorageCard.tsx'
import { SwarmConfigCard } from './SwarmConfigCard.tsx'
import { useSettingsStore } from '../stores.ts'

export function SettingsView() {
  const configError = useSettingsStore((s) => s.configError)
  const configUrl = useSettingsStore((s) => s.configUrl)
  return (
    <div className="view settings-view">
      {configError && (
        <div className="banner tone-bad" role="alert">
          <span className="banner-dot" aria-hidden="true" />
          <div>
            <strong className="banner-title">Could not use the swarm config</strong>
            <div className="banner-detail" data-testid="config-error">
              {configError}
            </div>
            <div className="banner-detail">
              Check <code>{configUrl}</code>, or open this page with <code>?swarm=&lt;config URL&gt;</code> to
              use another one.
            </div>
          </div>
        </div>
      )}
      <div className="settings-grid">
        <SwarmConfigCard />
        <div className="settings-col">
          <ParticipationCard />
          <NetworkConfigCard />
          <StorageCard />
          <DelphiSettingsCard />
        </div>
      </div>
    </div>
  )
}
