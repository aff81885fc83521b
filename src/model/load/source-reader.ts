// The FolderReader for each kind of model source the page can send.
import type { ModelSource } from '../../solver/solver-protocol.ts'
import { directoryHandleFolder } from './directory-handle-folder.ts'
import type { FolderReader } from './folder-reader.ts'
import { pickedFilesFolder } from './picked-files-folder.ts'
import { urlFolder, type UrlFolderOptions } from './url-folder.ts'

export function sourceReader(source: ModelSource, options: UrlFolderOptions = {}): FolderReader {
  switch (source.kind) {
    case 'url':
      return urlFolder(source.url, options)
    case 'files':
      return pickedFilesFolder(source.files)
    case 'directory':
      return directoryHandleFolder(source.handle)
  }
}
