// A model folder from the person's disk, three ways: the directory picker (File System Access API,
// Chromium), an <input webkitdirectory> (every browser; the files carry their webkitRelativePath), and
// a dropped folder (DataTransferItem.getAsFileSystemHandle, Chromium). Not in TypeScript's DOM lib yet,
// so the few members used are typed here.
import type { ModelSource } from '../../peer/solver/solver-protocol.ts'

export interface PickedFolder {
  /** the folder's name, for the model card and the remembered choice */
  readonly name: string
  readonly source: ModelSource
}

type DirectoryPicker = (options?: { mode?: 'read' }) => Promise<FileSystemDirectoryHandle>
type HandleGetter = () => Promise<FileSystemHandle | null>

function directoryPicker(): DirectoryPicker | undefined {
  const picker = (globalThis as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker
  return typeof picker === 'function' ? picker.bind(globalThis) : undefined
}

export const canPickDirectory = (): boolean => directoryPicker() !== undefined

/** The directory picker's folder; undefined when the person closed the picker. */
export async function pickDirectory(): Promise<PickedFolder | undefined> {
  const picker = directoryPicker()
  if (!picker) throw new Error('this browser has no folder picker: choose the folder’s files instead')
  try {
    const handle = await picker({ mode: 'read' })
    return { name: handle.name, source: { kind: 'directory', handle } }
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return undefined
    throw err
  }
}

/** The files of an <input webkitdirectory>, named by the folder they came from. */
export function folderOfFiles(files: readonly File[]): PickedFolder {
  if (files.length === 0) throw new Error('the chosen folder is empty: choose the model folder itself')
  const first = files[0]!.webkitRelativePath || files[0]!.name
  const name = first.includes('/') ? first.slice(0, first.indexOf('/')) : 'files'
  return { name, source: { kind: 'files', files } }
}

/** The folder dropped on the view; throws a sentence when what was dropped is not one folder. */
export async function folderOfDrop(items: DataTransferItemList): Promise<PickedFolder> {
  const item = Array.from(items).find((i) => i.kind === 'file')
  const getHandle = (item as { getAsFileSystemHandle?: HandleGetter } | undefined)?.getAsFileSystemHandle
  if (!item || typeof getHandle !== 'function')
    throw new Error('this browser cannot take a dropped folder: use "Pick folder" instead')
  const handle = await getHandle.call(item)
  if (!handle || handle.kind !== 'directory')
    throw new Error('drop the model folder itself (the one with config.json), not a file')
  return { name: handle.name, source: { kind: 'directory', handle: handle as FileSystemDirectoryHandle } }
}
