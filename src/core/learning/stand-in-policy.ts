// A Policy for tests of the round loop without a model: characters are tokens and sample i answers
// `<answer>i</answer>`, so one of two samples is right for tasks whose answer is 0 or 1, else both
// wrong; training only counts versions and tells `onTrain` what it got.
import type { TokenizedGroup } from './tokenized-group.ts'
import type { Policy } from './swarm-round.ts'

export const chars = (text: string) => [...text].map((c) => c.charCodeAt(0))

/** The stand-in's context: room for any prompt and completion the tests send, unless they set less. */
export const STAND_IN_CONTEXT = 4096

export function standInPolicy(onTrain: (groups: readonly TokenizedGroup[]) => void = () => {}): Policy {
  let version = 0
  return {
    get version() {
      return version
    },
    maxSeqLen: STAND_IN_CONTEXT,
    promptIds: (task) => chars(task.prompt),
    sample: async (_prompt, samples) =>
      Array.from({ length: samples }, (_, i) => {
        const text = `<answer>${i}</answer>`
        return { text, tokenIds: chars(text), eos: true }
      }),
    matches: (c) => String.fromCharCode(...c.tokenIds) === c.text,
    train: async (groups) => {
      onTrain(groups)
      version++
      return { loss: 0.5, gradNorm: 0.75, weightsHash: `w${version}` }
    },
  }
}
