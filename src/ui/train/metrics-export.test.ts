import { describe, expect, it } from 'vitest'
import { csvCell, exportFileName, metricsToJson, roundsToCsv } from './metrics-export.ts'
import { roundRow } from '../../../test-support/train/round-row-fixture.ts'

describe('metrics export', () => {
  it('quotes CSV cells only when they need it', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell(undefined)).toBe('')
    expect(csvCell(0.25)).toBe('0.25')
  })

  it('writes one CSV row per round with the evaluation after it joined in', () => {
    const rounds = [
      roundRow(0, { kl: 0.0625, gradNorm: 0.375 }),
      roundRow(1, { skipped: 'late, joined at 0:40', loss: undefined }),
    ]
    const csv = roundsToCsv(rounds, [{ round: 0, policyVersion: 1, pass1: 0.5, tasks: 16 }])
    const lines = csv.trimEnd().split('\r\n')
    expect(lines).toHaveLength(3)
    const header = lines[0]!.split(',')
    expect(header[0]).toBe('round')
    expect(header).toContain('eval_pass1')
    const cell = (line: number, name: string) =>
      lines[line]!.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[header.indexOf(name)]
    expect(cell(1, 'own_reward')).toBe('0.5')
    expect(cell(1, 'eval_pass1')).toBe('0.5')
    expect(cell(1, 'started_at')).toBe('2026-01-01T00:00:00.000Z')
    expect(cell(2, 'eval_pass1')).toBe('')
    expect(cell(2, 'loss')).toBe('')
    // the KL to the reference policy, for rounds trained with a KL penalty
    expect(cell(1, 'kl')).toBe('0.0625')
    expect(cell(1, 'trained_informative')).toBe('3')
    expect(cell(2, 'kl')).toBe('')
    // the step's gradient norm before clipping: what moves the weights, where the on-policy loss reads 0
    expect(cell(1, 'grad_norm')).toBe('0.375')
    expect(cell(2, 'grad_norm')).toBe('')
    expect(cell(2, 'skipped')).toBe('"late, joined at 0:40"')
    expect(csv.endsWith('\r\n')).toBe(true)
  })

  it('writes the model, rounds and evaluations as JSON that reads back', () => {
    const model = { name: 'micro', parameters: 20_000, weightsHash: 'ab'.repeat(32), policyVersion: 3 }
    const evals = [{ round: 2, policyVersion: 3, pass1: 0.125, tasks: 8 }]
    const json = metricsToJson(
      { model, rounds: [roundRow(2, { kl: 0.5 })], evals },
      { swarmId: 'swarm-1', peerId: '12D3KooWpeer', exportedAt: Date.UTC(2026, 10, 30) },
    )
    const back = JSON.parse(json) as Record<string, unknown>
    expect(back).toMatchObject({
      version: 1,
      exportedAt: '2026-11-30T00:00:00.000Z',
      swarmId: 'swarm-1',
      peerId: '12D3KooWpeer',
      model,
      evals,
    })
    expect((back.rounds as { round: number; kl: number }[])[0]).toMatchObject({ round: 2, kl: 0.5 })
  })

  it('names files by peer and time without characters file systems dislike', () => {
    expect(exportFileName('12D3KooWabcdefXYZ123', Date.UTC(2026, 10, 30, 6, 5, 4), 'csv')).toBe(
      'tabswarm-rounds-XYZ123-2026-11-30T06-05-04.csv',
    )
    expect(exportFileName(null, Date.UTC(2026, 10, 30), 'json')).toBe(
      'tabswarm-rounds-2026-11-30T00-00-00.json',
    )
  })
})
