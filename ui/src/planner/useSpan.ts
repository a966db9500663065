import { useViewportSize } from '@mantine/hooks'
import { spanFor } from './period'

/** The planner's span for the window as it is now: 8 months in landscape, 3 in portrait; follows resizes and rotations. */
export function useSpan(): number {
  const { width, height } = useViewportSize()
  // Before the first measure the hook reports 0×0: read the window directly.
  if (width === 0 && height === 0 && typeof window !== 'undefined')
    return spanFor(window.innerWidth, window.innerHeight)
  return spanFor(width, height)
}
