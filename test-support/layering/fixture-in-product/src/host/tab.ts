// Product code leaning on a test fixture.
import { fixtureRows } from '../../test-support/fixture.ts'

export const rows = (): number => fixtureRows.length
