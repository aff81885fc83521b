/// <reference types="@webgpu/types" />

/**
 * navigator.gpu for Node through Dawn (the `webgpu` npm package). Loaded lazily so browser bundles
 * never see it. On a GPU-less Linux box Dawn needs a Vulkan loader and ICD: Chromium's SwiftShader
 * works when the process starts with LD_LIBRARY_PATH=/usr/lib/chromium and
 * VK_DRIVER_FILES=/usr/lib/chromium/vk_swiftshader_icd.json (runtime-notes.md §3).
 */
export async function nodeGpu(): Promise<GPU> {
  const { create, globals } = await import('webgpu')
  Object.assign(globalThis, globals)
  return create([])
}
