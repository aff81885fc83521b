// CodeZero's solver reward (RL Swarm v0.7, ../shared/research/rl-swarm.md §5), for reasoning and code
// tasks alike, range [-1.2, 1.2] with the default weights:
//
//   completion not a string                  → notAString (-1.2), no length term
//   no answer format (<answer> / code fence) → missingFormat (-1.0) + length term
//   formatted                                → correct (1.0) or incorrect (0.0) + length term
//   length term: lengthBonus (+0.2) if the completion stopped before maxTokens tokens (EOS found),
//                lengthPenalty (-0.2) if it ran to the token limit
//
// CodeZero's correctness came from an LLM judge; here it is exact: the family's verifier, or the sandbox
// running the hidden tests (any verdict but 'pass' is incorrect).

export interface RewardConfig {
  notAString: number
  missingFormat: number
  correct: number
  incorrect: number
  lengthBonus: number
  lengthPenalty: number
  /** the generation limit: a completion of this many tokens or more did not find EOS */
  maxTokens: number
}

export const CODEZERO_REWARD: Readonly<RewardConfig> = {
  notAString: -1.2,
  missingFormat: -1.0,
  correct: 1.0,
  incorrect: 0.0,
  lengthBonus: 0.2,
  lengthPenalty: -0.2,
  maxTokens: 256,
}

/** What the verifiers found about one completion. */
export type Outcome =
  { isString: false } | { isString: true; formatted: boolean; correct: boolean; tokens: number }

/** The reward in parts, for the UI's breakdown; total is their sum. */
export interface RewardBreakdown {
  format: number
  correctness: number
  length: number
  total: number
}

export function shapeReward(outcome: Outcome, config: RewardConfig = CODEZERO_REWARD): RewardBreakdown {
  if (!outcome.isString) return parts(config.notAString, 0, 0)
  const length = outcome.tokens < config.maxTokens ? config.lengthBonus : config.lengthPenalty
  if (!outcome.formatted) return parts(config.missingFormat, 0, length)
  return parts(0, outcome.correct ? config.correct : config.incorrect, length)
}

function parts(format: number, correctness: number, length: number): RewardBreakdown {
  return { format, correctness, length, total: format + correctness + length }
}
