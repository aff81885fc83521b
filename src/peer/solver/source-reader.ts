// The FolderReader for each kind of model source the page can send.
import type { ModelSource } from './solver-protocol.ts'
import { directoryHandleFolder } from '../../compute/model/load/directory-handle-folder.ts'
import type { FolderReader } from '../../compute/model/load/folder-reader.ts'
import { memoryFolder } from '../../compute/model/load/memory-folder.ts'
import { pickedFilesFolder } from '../../compute/model/load/picked-files-folder.ts'
import { urlFolder, type UrlFolderOptions } from '../../compute/model/load/url-folder.ts'

export function sourceReader(source: ModelSource, options: UrlFolderOptions = {}): FolderReader {
  switch (source.kind) {
    case 'url':
      return urlFolder(source.url, options)
    case 'files':
      return pickedFilesFolder(source.files)
    case 'directory':
      return directoryHandleFolder(source.handle)
    case 'read':
      return memoryFolder(source.url, source.files)
  }
}
