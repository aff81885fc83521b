// Compiles a tokenizer.json Split regex (Oniguruma syntax, as the Rust library runs it) to a JS RegExp.
// The patterns byte-level BPE models ship (GPT-2, Qwen2, Llama 3) use only syntax JS shares with
// Oniguruma — \p{L}, \p{N}, lookahead, classes — with two differences that are rewritten here:
// - inline case-insensitive groups `(?i:…)`, which Node 20 lacks: a group of plain literals and `|`
//   becomes one character class per letter ('re → '[rR][eE]);
// - `\s`: Oniguruma's is Unicode White_Space, while JS's adds U+FEFF and misses U+0085, so `\s` / `\S`
//   become \p{White_Space} / \P{White_Space}.
// Any other construct JS cannot compile is refused with an error that names the pattern.

const CASE_INSENSITIVE_GROUP = /\(\?i:([^()]*)\)/g
/** What a rewritable `(?i:…)` group may contain: letters, apostrophes, digits, spaces and `|`. */
const PLAIN_ALTERNATION = /^[\p{L}\p{N}' |]*$/u

function caseVariants(char: string): string {
  const lower = char.toLowerCase()
  const upper = char.toUpperCase()
  // a letter whose case mapping is not one character (ß → SS) cannot become a one-character class
  if (lower === upper || [...lower].length !== 1 || [...upper].length !== 1) return char
  return `[${lower}${upper}]`
}

function rewriteCaseInsensitiveGroups(pattern: string): string {
  return pattern.replace(CASE_INSENSITIVE_GROUP, (group: string, body: string) => {
    if (!PLAIN_ALTERNATION.test(body))
      throw new TypeError(
        `tokenizer.json: split pattern group ${group} cannot be translated (only letters, digits, "'" and "|" are supported inside (?i:…))`,
      )
    return `(?:${[...body].map(caseVariants).join('')})`
  })
}

/** Rewrites `\s` and `\S` (not an escaped backslash followed by "s") to Unicode White_Space. */
function rewriteWhitespaceEscapes(pattern: string): string {
  return pattern.replace(/\\(.)/gsu, (escape: string, char: string) =>
    char === 's' ? '\\p{White_Space}' : char === 'S' ? '\\P{White_Space}' : escape,
  )
}

/** A global, unicode-aware RegExp equivalent to the Oniguruma `pattern`; throws a TypeError naming it if none is known. */
export function compileSplitPattern(pattern: string): RegExp {
  const translated = rewriteWhitespaceEscapes(rewriteCaseInsensitiveGroups(pattern))
  try {
    return new RegExp(translated, 'gu')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new TypeError(
      `tokenizer.json: split pattern ${JSON.stringify(pattern)} cannot be translated to a JS RegExp (${reason})`,
    )
  }
}

/** Escapes a literal string so that it matches itself inside a RegExp. */
export function escapeRegExp(literal: string): string {
  return literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

/**
 * Isolated split: every match and every non-empty gap between matches is its own piece, in order, so
 * the pieces concatenate back to `text`. Empty matches are skipped.
 */
export function splitIsolated(text: string, regex: RegExp): string[] {
  const pieces: string[] = []
  let last = 0
  for (const match of text.matchAll(regex)) {
    const start = match.index
    const end = start + match[0].length
    if (end === start) continue
    if (start > last) pieces.push(text.slice(last, start))
    pieces.push(match[0])
    last = end
  }
  if (last < text.length) pieces.push(text.slice(last))
  return pieces
}
