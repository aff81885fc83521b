import { callCount, type CodeTemplate } from '../code-template.ts'

export const runLength: CodeTemplate = {
  name: 'run-length',
  signature: 'runLength(s)',
  generate(random, difficulty) {
    const countFirst = random.bool()
    const letters = [...'abcdefgh'.slice(0, 1 + difficulty)]
    const encode = (s: string) =>
      (s.match(/(.)\1*/g) ?? [])
        .map((run) => (countFirst ? `${run.length}${run[0]}` : `${run[0]}${run.length}`))
        .join('')
    const word = () => {
      let s = ''
      for (let runs = random.int(difficulty > 1 ? 0 : 1, 2 + 2 * difficulty); runs > 0; runs--)
        s += random.pick(letters).repeat(random.int(1, 3 * difficulty))
      return s
    }
    const words = Array.from({ length: callCount(difficulty) }, word)
    return {
      statement:
        `that returns the run-length encoding of the string s: each run of one repeated character becomes ` +
        `${countFirst ? 'the run length followed by the character' : 'the character followed by the run length'}` +
        ` (so "aaab" gives "${encode('aaab')}", and "" gives "").`,
      calls: words.map((s) => ({ args: [s], expected: encode(s) })),
      solution: `function runLength(s) {
  return (s.match(/(.)\\1*/g) ?? []).map((run) => ${countFirst ? '`${run.length}${run[0]}`' : '`${run[0]}${run.length}`'}).join('')
}`,
    }
  },
}
