// The code of a code-task completion: the last fenced block tagged javascript/js (or untagged), as
// CodeZero takes the last ```python block. A completion without one fails the format check.

export function extractCode(completion: string): string | undefined {
  const blocks = [...completion.matchAll(/```(javascript|js|)[ \t]*\r?\n([\s\S]*?)```/gi)]
  return blocks.at(-1)?.[2]
}
