// The fault the import rule exists for: a core module reaching up into the tab's main thread.
import { tabName } from '../host/tab.ts'

export const roundOwner = (): string => tabName
