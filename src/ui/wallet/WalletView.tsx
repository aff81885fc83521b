// The Wallet view: the wallet and its balances, this peer's registration, the burner key, settings.
import { BurnerCard } from './BurnerCard.tsx'
import { RegistrationCard } from './RegistrationCard.tsx'
import { WalletCard } from './WalletCard.tsx'
import { WalletSettingsCard } from './WalletSettingsCard.tsx'

export function WalletView() {
  return (
    <div className="view wallet-view">
      <div className="wallet-grid">
        <div className="wallet-col">
          <WalletCard />
          <BurnerCard />
          <WalletSettingsCard />
        </div>
        <div className="wallet-col">
          <RegistrationCard />
        </div>
      </div>
    </div>
  )
}
