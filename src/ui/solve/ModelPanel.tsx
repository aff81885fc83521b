// The model: where it comes from (the shipped model, a URL, a picked or dropped folder), its loading
// progress, and once loaded its card. A load that fails says which file and why; the controls stay.
import { useRef, useState } from 'react'
import { useDropZone } from '../common/use-drop-zone.ts'
import type { ModelCard } from '../../peer/solver/solver-protocol.ts'
import { type ModelChoice, type ModelStatus } from '../../host/stores/solver-store.ts'
import { Card } from '../common/Card.tsx'
import { CopyButton } from '../common/CopyButton.tsx'
import { formatBytes, formatCompact } from '../../host/format.ts'
import {
  canPickDirectory,
  folderOfDrop,
  folderOfFiles,
  pickDirectory,
  type PickedFolder,
} from '../../host/solve/folder-source.ts'
import { LoadProgress } from './LoadProgress.tsx'
import { SHIPPED_MODEL_PATH, sourceOf, type SolveSession } from '../../host/solve/solve-session.ts'
import { useSolverStore } from '../stores.ts'

const INFERENCE_ONLY = 'inference only — training real models in the tab is out of scope for now'

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err))

function StatusPill({ model }: { model: ModelStatus }) {
  const [tone, text] =
    model.phase === 'ready'
      ? ['good', 'ready']
      : model.phase === 'loading'
        ? ['warn', 'loading']
        : model.phase === 'error'
          ? ['bad', 'failed']
          : ['muted', 'no model']
  return (
    <span className={`pill tone-${tone}`} data-testid="model-status" data-phase={model.phase}>
      {text}
    </span>
  )
}

function CardDetails({ card, tokensPerSecond }: { card: ModelCard; tokensPerSecond: number | null }) {
  return (
    <dl className="kv solve-card" data-testid="model-card">
      <dt>Name</dt>
      <dd data-testid="model-name">{card.name}</dd>
      <dt>Source</dt>
      <dd data-testid="model-source">{card.source}</dd>
      <dt>Parameters</dt>
      <dd data-testid="model-params" data-value={card.parameters}>
        {formatCompact(card.parameters)}
      </dd>
      <dt>Size</dt>
      <dd data-testid="model-size" data-value={card.sizeBytes}>
        {formatBytes(card.sizeBytes)}
      </dd>
      <dt>Backend</dt>
      <dd data-testid="model-backend">{card.backend === 'webgpu' ? 'WebGPU' : 'WebAssembly (CPU)'}</dd>
      <dt>Context</dt>
      <dd>
        {card.maxContext} tokens <span className="muted">· vocabulary {card.vocabSize}</span>
      </dd>
      <dt>Speed</dt>
      <dd data-testid="model-tps">
        {tokensPerSecond === null ? '— (solve a task)' : `${formatCompact(tokensPerSecond)} tokens/s`}
      </dd>
      <dt>Weights</dt>
      <dd className="id-line">
        <code className="solve-hash" data-testid="model-hash" title={card.weightsHash}>
          {card.weightsHash}
        </code>
        <CopyButton text={card.weightsHash} />
      </dd>
      <dt>Training</dt>
      <dd data-testid="model-trainable" data-trainable={card.trainable}>
        {card.trainable ? 'trainable in the tab (tabswarm checkpoint)' : INFERENCE_ONLY}
      </dd>
    </dl>
  )
}

export function ModelPanel({ session }: { session: SolveSession }) {
  const model = useSolverStore((s) => s.model)
  const choice = useSolverStore((s) => s.choice)
  // the speed of the last task this model solved
  const tokensPerSecond = useSolverStore((s) => {
    const last = s.history.at(-1)
    return s.model.phase === 'ready' && last?.weightsHash === s.model.card.weightsHash
      ? last.tokensPerSecond
      : null
  })
  const [url, setUrl] = useState(choice.kind === 'url' ? choice.url : '')
  const [pickError, setPickError] = useState<string | null>(null)
  const folderInput = useRef<HTMLInputElement | null>(null)
  const busy = model.phase === 'loading'

  const loadFolder = (folder: PickedFolder) => {
    setPickError(null)
    void session.loadModel({ kind: 'folder', name: folder.name }, folder.source)
  }
  const tryFolder = (get: () => Promise<PickedFolder | undefined>) => {
    get().then(
      (folder) => folder && loadFolder(folder),
      (err: unknown) => setPickError(errorText(err)),
    )
  }
  /** The shipped model or a URL, resolved against the page. */
  const loadChoice = (next: ModelChoice) => {
    try {
      const source = sourceOf(next, location.href)
      setPickError(null)
      if (source) void session.loadModel(next, source)
    } catch {
      setPickError(`“${url.trim()}” is not a URL: give the model folder’s address`)
    }
  }
  const drop = useDropZone((data) => {
    // the handle must be asked for during the drop event itself
    const folder = folderOfDrop(data.items)
    tryFolder(() => folder)
  })

  return (
    <Card
      title="Model"
      aside={<StatusPill model={model} />}
      testId="model-panel"
      className={`solve-model ${drop.dragging ? 'dragging' : ''}`}
      {...drop.handlers}
    >
      <p className="card-lead">
        Load the shipped model, a model folder by URL, or a folder from your disk (pick or drop it): a
        tabswarm model or a Hugging Face-style ONNX export (<code>config.json</code>,{' '}
        <code>tokenizer.json</code>, <code>onnx/model.onnx</code>).
      </p>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="model-load-shipped"
          title={`${SHIPPED_MODEL_PATH}, next to this page`}
          disabled={busy}
          onClick={() => loadChoice({ kind: 'shipped' })}
        >
          Shipped model
        </button>
        <button
          type="button"
          className="btn"
          data-testid="model-pick-folder"
          disabled={busy}
          onClick={() => (canPickDirectory() ? tryFolder(pickDirectory) : folderInput.current?.click())}
        >
          Pick folder…
        </button>
        <input
          type="file"
          multiple
          className="visually-hidden"
          data-testid="model-folder-input"
          aria-label="Model folder"
          ref={(el) => {
            // not a React prop: the attribute makes the input choose a folder
            el?.setAttribute('webkitdirectory', '')
            folderInput.current = el
          }}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? [])
            e.target.value = ''
            tryFolder(async () => folderOfFiles(files))
          }}
        />
        <span className="hint-inline">or drop a folder here</span>
      </div>
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault()
          loadChoice({ kind: 'url', url: url.trim() })
        }}
      >
        <label className="field grow">
          <span>Model folder URL</span>
          <input
            className="input"
            value={url}
            placeholder="https://…/my-model/"
            data-testid="model-url-input"
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <button type="submit" className="btn" data-testid="model-url-load" disabled={busy || !url.trim()}>
          Load URL
        </button>
      </form>
      {pickError && (
        <p className="inline-error" role="alert" data-testid="model-pick-error">
          {pickError}
        </p>
      )}

      {model.phase === 'idle' && (
        <p className="hint" data-testid="model-idle">
          {choice.kind === 'folder'
            ? `Pick the folder “${choice.name}” again to reload it (a picked folder is not remembered across reloads).`
            : 'No model loaded yet.'}
        </p>
      )}
      {(model.phase === 'loading' || model.phase === 'ready') && (
        <LoadProgress files={model.files} done={model.phase === 'ready'} />
      )}
      {model.phase === 'error' && (
        <p className="inline-error" role="alert" data-testid="model-error">
          {model.message}
        </p>
      )}
      {model.phase === 'ready' && <CardDetails card={model.card} tokensPerSecond={tokensPerSecond} />}
    </Card>
  )
}
