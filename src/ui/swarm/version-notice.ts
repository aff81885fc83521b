// The Swarm view's sentence for messages from a newer protocol version: they are ignored, not held
// against their senders, and the fix is on this side (update), so the view says so in words.

/** The sentence for the user, or null when no message of a newer version was heard. */
export function versionNotice(rejectedByReason: Readonly<Record<string, number>>): string | null {
  const n = rejectedByReason['unknown-version'] ?? 0
  if (n === 0) return null
  const messages = n === 1 ? '1 message' : `${n} messages`
  return `${messages} from a newer protocol version ${n === 1 ? 'was' : 'were'} ignored: some peers run a newer tabswarm. Update this one (reload the page, or pull and restart a local install) to hear them.`
}
