// A card that takes dropped files or folders: whether something is being dragged over it (for the
// highlight) and the handlers to spread on it. `onDrop` runs inside the drop event, where the browser
// still hands out the dropped items (a folder's handle can be asked for only then).
import { useState, type DragEvent } from 'react'

export interface DropZone {
  dragging: boolean
  handlers: {
    onDragOver: (e: DragEvent) => void
    onDragLeave: () => void
    onDrop: (e: DragEvent) => void
  }
}

export function useDropZone(onDrop: (data: DataTransfer) => void): DropZone {
  const [dragging, setDragging] = useState(false)
  return {
    dragging,
    handlers: {
      onDragOver: (e) => {
        e.preventDefault()
        setDragging(true)
      },
      onDragLeave: () => setDragging(false),
      onDrop: (e) => {
        e.preventDefault()
        setDragging(false)
        onDrop(e.dataTransfer)
      },
    },
  }
}
