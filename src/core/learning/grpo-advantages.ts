// GRPO's group-normalised advantages: each completion's reward against its group's mean, in units of the
// group's standard deviation. A group whose rewards are all equal teaches nothing and gets zeros.

/** Added to the standard deviation so a nearly flat group does not blow up (DeepSeekMath / TRL use 1e-4). */
export const ADVANTAGE_EPS = 1e-4

export function groupAdvantages(rewards: readonly number[]): number[] {
  const n = rewards.length
  if (n === 0) return []
  const mean = rewards.reduce((a, b) => a + b, 0) / n
  if (rewards.every((r) => r === rewards[0])) return rewards.map(() => 0)
  // population standard deviation, as GRPO's reference implementation (TRL) uses
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / n)
  return rewards.map((r) => (r - mean) / (std + ADVANTAGE_EPS))
}

/** Whether a group can contribute a gradient (its rewards are not all equal). */
export const isInformative = (rewards: readonly number[]): boolean => rewards.some((r) => r !== rewards[0])
