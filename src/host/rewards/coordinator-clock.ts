// The round clock as the coordinator keeps it: round r starts at genesisTime + r·roundLength (both in
// whole seconds on chain). The swarm's round loop takes it from here when the swarm has a chain, so a
// peer's rounds are the ones the coordinator accepts submissions for.
import type { Address, PublicClient } from 'viem'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'

export interface CoordinatorClock {
  /** start of round 0, ms since the epoch */
  genesisTime: number
  roundLengthMs: number
}

export async function readCoordinatorClock(
  client: PublicClient,
  coordinator: Address,
): Promise<CoordinatorClock> {
  const contract = { address: coordinator, abi: swarmCoordinatorAbi } as const
  const [genesis, roundLength] = await Promise.all([
    client.readContract({ ...contract, functionName: 'genesisTime' }),
    client.readContract({ ...contract, functionName: 'roundLength' }),
  ])
  return { genesisTime: Number(genesis) * 1000, roundLengthMs: Number(roundLength) * 1000 }
}
