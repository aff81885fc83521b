import { callCount, type CodeTemplate } from '../code-template.ts'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz'

export const countCharacters: CodeTemplate = {
  name: 'count-characters',
  signature: 'countCharacters(s)',
  generate(random, difficulty) {
    const wanted = [
      ...new Set(Array.from({ length: random.int(2, 4) }, () => random.pick([...ALPHABET]))),
    ].join('')
    // From difficulty 3 on, upper-case letters count too: the solution must fold case.
    const ignoreCase = difficulty >= 3
    const letters = ignoreCase ? ALPHABET + ALPHABET.toUpperCase() + ' ' : ALPHABET
    // From difficulty 2 on, the second test is the empty string. One letter in three is from the wanted
    // set, so that counts differ from test to test.
    const word = (i: number) =>
      Array.from({ length: i === 1 && difficulty > 1 ? 0 : random.int(1, 6 * difficulty) }, () =>
        random.int(0, 2) === 0 ? random.pick([...wanted]) : random.pick([...letters]),
      ).join('')
    const count = (s: string) =>
      [...(ignoreCase ? s.toLowerCase() : s)].filter((c) => wanted.includes(c)).length
    const words = Array.from({ length: callCount(difficulty) }, (_, i) => word(i))
    return {
      statement: `that returns how many characters of the string s are one of the letters "${wanted}"${ignoreCase ? ', in upper or lower case' : ''}.`,
      calls: words.map((s) => ({ args: [s], expected: count(s) })),
      solution: `function countCharacters(s) {
  return [...s${ignoreCase ? '.toLowerCase()' : ''}].filter((c) => ${JSON.stringify(wanted)}.includes(c)).length
}`,
    }
  },
}
