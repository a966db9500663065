import { VisuallyHidden } from '@mantine/core'
import { useAnnouncement } from './announce'

/**
 * The page's polite live region (announce.ts): hidden from sight, read by
 * screen readers. Each announcement is a new child, so a repeated text is
 * read again.
 */
export function LiveRegion() {
  const { text, seq } = useAnnouncement()
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="live-region">
      {text ? <span key={seq}>{text}</span> : null}
    </VisuallyHidden>
  )
}
