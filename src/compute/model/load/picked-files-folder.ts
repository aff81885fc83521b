// A model folder the user picked (`<input webkitdirectory>`) or dropped: File objects whose
// webkitRelativePath starts with the picked folder's name ("tabswarm-tiny/onnx/model.onnx"). The folder
// root is where config.json sits, so picking a parent folder or dropping loose files also works.
import { readWithProgress, type FileRead, type FolderReader } from './folder-reader.ts'

function relativePath(file: File): string {
  return file.webkitRelativePath || file.name
}

export function pickedFilesFolder(files: readonly File[]): FolderReader {
  const configs = files
    .map(relativePath)
    .filter((path) => path === 'config.json' || path.endsWith('/config.json'))
  // the shallowest config.json marks the root; without one, the root is the common top (config.json is then reported missing)
  const rootConfig = configs.sort((a, b) => a.split('/').length - b.split('/').length)[0]
  const root = rootConfig ? rootConfig.slice(0, -'config.json'.length) : ''
  const byPath = new Map<string, File>()
  for (const file of files) {
    const path = relativePath(file)
    if (path.startsWith(root)) byPath.set(path.slice(root.length), file)
  }
  const label = root.split('/').filter(Boolean).pop() ?? 'picked files'
  return {
    label,
    async read(path, _pinned, onProgress): Promise<FileRead> {
      const file = byPath.get(path)
      if (!file) return { found: false, reason: `not among the picked files of ${label}` }
      return { found: true, bytes: await readWithProgress(file.stream(), file.size, onProgress) }
    },
  }
}
