// Integer answers, shared by the families whose answer is one integer: spaces, thousands separators
// (1,234 / 1 234 / 1_234) and a leading + are accepted; the value must be exact.

export function canonicalInteger(text: string): string | undefined {
  const compact = text.replace(/(?<=\d)[\s,_](?=\d{3}(\D|$))/g, '').trim()
  if (!/^[+-]?\d+$/.test(compact)) return undefined
  return BigInt(compact).toString()
}
