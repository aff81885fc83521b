// A task's id: hex SHA-256 of the canonical JSON (RFC 8785) of what defines it for a solver and a
// verifier — not its seed, so the same content from two seeds is one task.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { canonicalJson } from '../protocol/canonical-json.ts'
import type { Task } from './task.ts'

export type TaskContent = Omit<Task, 'id' | 'seed'>

export function taskId(content: TaskContent): string {
  return bytesToHex(sha256(new TextEncoder().encode(canonicalJson(content))))
}
