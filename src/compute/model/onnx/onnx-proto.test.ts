import * as ort from 'onnxruntime-web'
import { describe, expect, it } from 'vitest'
import { encodeModel, type Graph, type Model } from './onnx-proto.ts'

ort.env.wasm.numThreads = 1

const model = (graph: Graph): Model => ({ irVersion: 8, opsetVersion: 17, producerName: 'test', graph })

describe('ONNX proto builders', () => {
  it('encode a model onnxruntime runs: attributes, int64/float initializers, symbolic dims', async () => {
    // y = Transpose(table[ids]) to [2, batch, seq]; z = x + 0.5
    const bytes = encodeModel(
      model({
        name: 'proto-test',
        nodes: [
          {
            opType: 'Gather',
            inputs: ['table', 'ids'],
            outputs: ['rows'],
            name: 'g',
            attributes: [{ name: 'axis', int: 0 }],
          },
          {
            opType: 'Transpose',
            inputs: ['rows'],
            outputs: ['y'],
            name: 't',
            attributes: [{ name: 'perm', ints: [2, 0, 1] }],
          },
          { opType: 'Add', inputs: ['x', 'half'], outputs: ['z'], name: 'a' },
        ],
        initializers: [
          { name: 'table', dims: [3, 2], data: Float32Array.of(10, 11, 20, 21, 30, 31) },
          { name: 'half', dims: [], data: Float32Array.of(0.5) },
        ],
        inputs: [
          { name: 'ids', elemType: 'int64', shape: ['batch', 'seq'] },
          { name: 'x', elemType: 'float32', shape: ['batch', 3] },
        ],
        outputs: [
          { name: 'y', elemType: 'float32', shape: [2, 'batch', 'seq'] },
          { name: 'z', elemType: 'float32', shape: ['batch', 3] },
        ],
      }),
    )
    const session = await ort.InferenceSession.create(bytes)
    expect(session.inputNames).toEqual(['ids', 'x'])
    expect(session.outputNames).toEqual(['y', 'z'])
    const out = await session.run({
      ids: new ort.Tensor('int64', BigInt64Array.of(2n, 0n, 1n), [1, 3]),
      x: new ort.Tensor('float32', Float32Array.of(1, 2, 3), [1, 3]),
    })
    expect(out.y!.dims).toEqual([2, 1, 3])
    expect(Array.from(out.y!.data as Float32Array)).toEqual([30, 10, 20, 31, 11, 21])
    expect(Array.from(out.z!.data as Float32Array)).toEqual([1.5, 2.5, 3.5])
    await session.release()
  }, 60_000) // the session compiles onnxruntime's wasm: seconds on a loaded machine

  it('writes the model header fields first: ir_version, producer_name', () => {
    const bytes = encodeModel(model({ name: 'g', nodes: [], initializers: [], inputs: [], outputs: [] }))
    // 08 08: field 1 varint 8; 12 04 "test": field 2, 4 bytes
    expect(Buffer.from(bytes.subarray(0, 8)).toString('hex')).toBe(
      '08081204' + Buffer.from('test').toString('hex'),
    )
  })

  it('names a tensor whose dims do not match its data', () => {
    const graph: Graph = {
      name: 'g',
      nodes: [],
      initializers: [{ name: 'w', dims: [2, 2], data: new Float32Array(3) }],
      inputs: [],
      outputs: [],
    }
    expect(() => encodeModel(model(graph))).toThrow('onnx tensor w: dims [2,2] hold 4 values, data has 3')
  })
})
