// The deployment record a local chain's state file keeps beside it, so a restart finds its contracts.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { parseDeployment } from './deployment.ts'
import type { ChainDeployment } from './deployment.ts'

/** The recorded deployment, or undefined when the file is missing or not a deployment. */
export async function readDeploymentRecord(file: string): Promise<ChainDeployment | undefined> {
  try {
    return parseDeployment(JSON.parse(await readFile(file, 'utf8')))
  } catch {
    return undefined // missing or unreadable: deploy afresh
  }
}

/** Writes atomically (temp file + rename), so a crash never leaves half a record. */
export async function writeDeploymentRecord(file: string, deployment: ChainDeployment): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify(deployment, null, 2) + '\n')
  await rename(tmp, file)
}
