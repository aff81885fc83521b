// The allowed direction: the host uses the core.
import { roundLength } from '../core/round.ts'

export const tabRoundLength = (): number => roundLength
