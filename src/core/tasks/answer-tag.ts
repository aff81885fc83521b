// The answer format of reasoning tasks, as in reasoning-gym and RL Swarm: the model may think aloud, and
// its final answer is the text of the last <answer>…</answer>.

export function answerInstruction(format: string): string {
  return `Think step by step if you need to, then give only the final answer, ${format}, between <answer> and </answer>.`
}

/** The last tagged answer, trimmed; undefined when there is none. Tags are matched case-insensitively. */
export function extractAnswer(completion: string): string | undefined {
  const matches = [...completion.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)]
  return matches.at(-1)?.[1]?.trim()
}

/** Whether a completion answers bare: its tagged answer first, with no working before it. */
export const answersBare = (completion: string): boolean => /^\s*<answer>/i.test(completion)
